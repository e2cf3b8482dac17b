"""Running arena games as Ray tasks (optional extra ``ray``), locally or on a cluster."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from warboard.ai.match import MatchResult, MatchSpec, play_match


def run_on_ray(specs: Sequence[MatchSpec],
               progress: Callable[[MatchResult], None] | None = None) -> list[MatchResult]:
    """Play every match as a Ray task. Connects to the cluster named by ``RAY_ADDRESS`` or the
    one already initialised, else starts a local one."""
    try:
        import ray
    except ImportError as exc:
        raise RuntimeError("the ray backend needs the 'ray' extra: pip install 'warboard[ray]'"
                           ) from exc
    if not ray.is_initialized():
        ray.init(ignore_reinit_error=True, log_to_driver=False)
    task = ray.remote(play_match)
    pending = [task.remote(spec) for spec in specs]
    results: list[MatchResult] = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            results.append(ray.get(ref))
            if progress:
                progress(results[-1])
    return results
