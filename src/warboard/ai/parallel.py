"""Running independent jobs (games, a learner) in local worker processes or as Ray tasks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from warboard.core.errors import MissingExtraError

Job = TypeVar("Job")
Result = TypeVar("Result")

BACKENDS = ("process", "ray")


def map_jobs(fn: Callable[[Job], Result], jobs: Sequence[Job], workers: int,
             backend: str = "process",
             progress: Callable[[Result], None] | None = None) -> list[Result]:
    """``fn`` of every job, in the jobs' order, run by ``workers`` local processes (in this one
    when ``workers <= 1``) or as Ray tasks (``backend="ray"``); ``progress`` is told of each
    result as it comes."""
    if backend == "ray":
        return _on_ray(fn, jobs, progress)
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; use {' or '.join(map(repr, BACKENDS))}")
    if workers <= 1 or len(jobs) <= 1:
        results = []
        for job in jobs:
            results.append(fn(job))
            if progress:
                progress(results[-1])
        return results
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(fn, job): n for n, job in enumerate(jobs)}
        done: dict[int, Result] = {}
        for future in as_completed(futures):
            done[futures[future]] = future.result()
            if progress:
                progress(done[futures[future]])
    return [done[n] for n in range(len(jobs))]


def ray_module() -> Any:
    """``ray``, connected to the cluster named by ``RAY_ADDRESS`` or the one already
    initialised, else to a new local one."""
    try:
        import ray
    except ImportError as exc:
        raise MissingExtraError("the ray backend needs the 'ray' extra: pip install 'warboard[ray]'"
                                ) from exc
    if not ray.is_initialized():
        ray.init(ignore_reinit_error=True, log_to_driver=False)
    return ray


def _on_ray(fn: Callable[[Job], Result], jobs: Sequence[Job],
            progress: Callable[[Result], None] | None) -> list[Result]:
    ray = ray_module()
    task = ray.remote(fn)
    refs = [task.remote(job) for job in jobs]
    index = {ref: n for n, ref in enumerate(refs)}
    done: dict[int, Result] = {}
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            done[index[ref]] = ray.get(ref)
            if progress:
                progress(done[index[ref]])
    return [done[n] for n in range(len(jobs))]
