"""The learner of self-play training: fits the policy-value model to the samples with PyTorch
(the ``train`` extra). Its network is ``ai.model``'s, layer for layer, so its weights play
with NumPy alone."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from warboard.ai.model import LAYERS
from warboard.ai.selfplay import Samples
from warboard.core.errors import MissingExtraError


@dataclass(frozen=True)
class LearnJob:
    samples: Samples
    start: Mapping[str, np.ndarray] | None  # the weights to go on from (None: new ones)
    inputs: int
    actions: int
    hidden: int
    epochs: int
    batch: int
    learning_rate: float
    weight_decay: float
    seed: int
    holdout: float = 0.0  # the share of the samples kept out of learning, to judge it


@dataclass(frozen=True)
class HeldOut:
    """The model after one epoch, on the samples it did not learn from."""

    policy_loss: float
    value_loss: float
    # the value's correlation with the results: near 0 when it has learnt its games by heart
    value_correlation: float


@dataclass(frozen=True)
class Learned:
    arrays: dict[str, np.ndarray]  # LAYERS, float32
    policy_loss: float  # the last epoch's means
    value_loss: float
    held_out: tuple[HeldOut, ...] = ()  # one an epoch, where the job held samples out


def require_torch() -> Any:
    """``torch``, or the error that says how to install it."""
    try:
        import torch
    except ImportError as exc:
        raise MissingExtraError("training needs the 'train' extra: pip install 'warboard[train]'"
                                ) from exc
    return torch


def learn(job: LearnJob) -> Learned:
    """``job.epochs`` passes over the samples in a seeded order: cross-entropy of the policy
    (over each decision's legal ids) against the search's visit shares, plus the squared error
    of the value against the result. With ``job.holdout`` the last samples (the newest games)
    are kept out, and the model is judged on them after each epoch."""
    torch = require_torch()
    torch.manual_seed(job.seed)
    net = _network(torch, job.inputs, job.hidden, job.actions)
    if job.start is not None:
        _load(torch, net, job.start)
    opt = torch.optim.Adam(net.parameters(), lr=job.learning_rate,
                           weight_decay=job.weight_decay)
    data = job.samples
    # a game's decisions lie together, so the tail holds whole games but for one
    learnt = len(data) - int(job.holdout * len(data))
    order_rng = np.random.default_rng(job.seed)
    policy_losses: list[float] = []
    value_losses: list[float] = []
    held_out = []
    for _ in range(job.epochs):
        policy_losses, value_losses = [], []
        order = order_rng.permutation(learnt)
        for first in range(0, len(order), job.batch):
            policy_loss, value_loss, _ = _losses(torch, net, data, order[first:first + job.batch],
                                                 job.actions)
            opt.zero_grad()
            (policy_loss + value_loss).backward()
            opt.step()
            policy_losses.append(policy_loss.item())
            value_losses.append(value_loss.item())
        if learnt < len(data):
            held_out.append(_judge(torch, net, data, np.arange(learnt, len(data)), job.actions))
    return Learned(_export(net), float(np.mean(policy_losses)), float(np.mean(value_losses)),
                   tuple(held_out))


def _losses(torch: Any, net: Any, data: Samples, rows: np.ndarray,
            actions: int) -> tuple[Any, Any, Any]:
    """The policy's cross-entropy and the value's squared error over ``rows``, and the
    values."""
    obs, mask, target, outcome = _batch(torch, data, rows, actions)
    logits, value = _forward(torch, net, obs)
    logp = torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)
    policy_loss = -(target * logp.masked_fill(~mask, 0.0)).sum(1).mean()
    return policy_loss, ((value - outcome) ** 2).mean(), value


def _judge(torch: Any, net: Any, data: Samples, rows: np.ndarray, actions: int) -> HeldOut:
    with torch.no_grad():
        policy_loss, value_loss, value = _losses(torch, net, data, rows, actions)
    values, results = value.numpy(), data.outcome[rows]
    spread = float(np.std(values) * np.std(results))
    correlation = float(np.corrcoef(values, results)[0, 1]) if spread > 0 else 0.0
    return HeldOut(round(policy_loss.item(), 4), round(value_loss.item(), 4),
                   round(correlation, 4))


def _batch(torch: Any, data: Samples, rows: np.ndarray, actions: int) -> tuple[Any, ...]:
    mask = torch.zeros((len(rows), actions), dtype=torch.bool)
    target = torch.zeros((len(rows), actions))
    for k, row in enumerate(rows):
        lo, hi = data.starts[row], data.starts[row + 1]
        ids = torch.from_numpy(data.ids[lo:hi].astype(np.int64))
        mask[k, ids] = True
        target[k, ids] = torch.from_numpy(data.probs[lo:hi])
    obs = torch.from_numpy(data.obs[rows].astype(np.float32))
    return obs, mask, target, torch.from_numpy(data.outcome[rows])


def _network(torch: Any, inputs: int, hidden: int, actions: int) -> Any:
    nn = torch.nn
    return nn.ModuleDict({"l1": nn.Linear(inputs, hidden), "l2": nn.Linear(hidden, hidden),
                          "policy": nn.Linear(hidden, actions), "value": nn.Linear(hidden, 1)})


def _forward(torch: Any, net: Any, obs: Any) -> tuple[Any, Any]:
    """``PolicyValueModel.predict`` of a batch, in torch."""
    h = torch.relu(net["l2"](torch.relu(net["l1"](obs))))
    return net["policy"](h), torch.tanh(net["value"](h)).squeeze(1)


def _pairs(net: Any) -> list[Any]:
    """The network's layers in ``LAYERS``' order (NumPy's weights are torch's transposed)."""
    return [net["l1"], net["l2"], net["policy"], net["value"]]


def _load(torch: Any, net: Any, arrays: Mapping[str, np.ndarray]) -> None:
    with torch.no_grad():
        for layer, (w, b) in zip(_pairs(net), zip(LAYERS[::2], LAYERS[1::2], strict=True),
                                 strict=True):
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(arrays[w].T)))
            layer.bias.copy_(torch.from_numpy(arrays[b]))


def _export(net: Any) -> dict[str, np.ndarray]:
    out = {}
    for layer, (w, b) in zip(_pairs(net), zip(LAYERS[::2], LAYERS[1::2], strict=True),
                             strict=True):
        out[w] = layer.weight.detach().numpy().T.copy()
        out[b] = layer.bias.detach().numpy().copy()
    return out
