"""Self-play training (issue 14 point 1) and the trained model's search (points 2 and 4): the
model plays with NumPy exactly as PyTorch trained it, a run resumed after an interruption ends
where an uninterrupted one does, Ray gives the same run, and a model agent sees only its seat's
view."""

from __future__ import annotations

import json
import random
import sys
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
import pytest

from game_walk import random_decision_points
from hidden_cards import reshuffled
from warboard.adapters.encodings import make_encoding
from warboard.ai.agent import decide, make_agent
from warboard.ai.match import MatchSpec, play_match
from warboard.ai.model import LAYERS, PolicyValueModel, model_knowledge, observation_size
from warboard.ai.ratings import elo_difference
from warboard.ai.selfplay import Samples, SearchSpec, SelfPlayJob, play_selfplay
from warboard.ai.train_config import TrainConfig
from warboard.ai.training import CHECKPOINT, Trainer
from warboard.cli import main
from warboard.hill218 import CardGame
from warboard.hill218.knowledge import evaluate_cards

QUICK = {"quick_start": True}
PARAMS = {"window": 11, "quick_start": True}


def tiny_config(**changes: object) -> TrainConfig:
    config = TrainConfig("hill218", QUICK, PARAMS, generations=2, games=2, iterations=6,
                         explore_decisions=2, buffer=2, hidden=8, epochs=2, batch=32,
                         eval_games=2, seed=5)
    return replace(config, **changes)


def random_model(game: str, params: dict[str, object], seed: int = 0,
                 hidden: int = 8) -> PolicyValueModel:
    encoding = make_encoding(game, params)
    shapes = {"w1": (observation_size(encoding), hidden), "b1": (hidden,),
              "w2": (hidden, hidden), "b2": (hidden,), "wp": (hidden, encoding.num_actions),
              "bp": (encoding.num_actions,), "wv": (hidden, 1), "bv": (1,)}
    rng = np.random.default_rng(seed)
    return PolicyValueModel({k: rng.normal(0, 0.3, shapes[k]).astype(np.float32)
                             for k in LAYERS}, {"game": game, "params": params})


def finished(folder: Path) -> list[dict[str, object]]:
    """A run's generations without their wall-clock seconds."""
    data = json.loads((folder / CHECKPOINT).read_text())
    return [{k: v for k, v in g.items() if k != "seconds"} for g in data["generations"]]


def test_a_saved_model_predicts_what_the_learner_trained():
    torch = pytest.importorskip("torch", reason="the train extra is not installed")
    from warboard.ai import learner

    samples = play_selfplay(SelfPlayJob("hill218", QUICK, PARAMS, SearchSpec(6, 0.5), 3, 2))
    encoding = make_encoding("hill218", PARAMS)
    job = learner.LearnJob(samples, None, observation_size(encoding), encoding.num_actions,
                           hidden=8, epochs=3, batch=16, learning_rate=1e-2, weight_decay=1e-4,
                           seed=1)
    learned = learner.learn(job)
    net = learner._network(torch, job.inputs, job.hidden, job.actions)
    learner._load(torch, net, learned.arrays)
    obs = samples.obs[:4].astype(np.float32)
    logits, values = learner._forward(torch, net, torch.from_numpy(obs))
    model = PolicyValueModel(learned.arrays, {"game": "hill218", "params": PARAMS})
    for k in range(4):
        mine_logits, mine_value = model.predict(obs[k])
        assert np.allclose(mine_logits, logits[k].detach().numpy(), atol=1e-4)
        assert mine_value == pytest.approx(values[k].item(), abs=1e-5)


def test_weight_decay_reaches_the_learner():
    pytest.importorskip("torch", reason="the train extra is not installed")
    from warboard.ai import learner

    samples = play_selfplay(SelfPlayJob("hill218", QUICK, PARAMS, SearchSpec(6, 0.5), 3, 2))
    encoding = make_encoding("hill218", PARAMS)

    def hidden_weights(weight_decay: float) -> float:
        job = learner.LearnJob(samples, None, observation_size(encoding), encoding.num_actions,
                               hidden=8, epochs=20, batch=16, learning_rate=1e-2,
                               weight_decay=weight_decay, seed=1)
        return float(np.abs(learner.learn(job).arrays["w2"]).sum())

    assert hidden_weights(1.0) < 0.5 * hidden_weights(0.0)


def test_held_out_samples_are_judged_each_epoch_and_never_learnt():
    pytest.importorskip("torch", reason="the train extra is not installed")
    from warboard.ai import learner

    samples = Samples.join([play_selfplay(SelfPlayJob("hill218", QUICK, PARAMS,
                                                      SearchSpec(6, 0.5), seed, 2))
                            for seed in (3, 4)])
    encoding = make_encoding("hill218", PARAMS)
    head = len(samples) - len(samples) // 4
    kept_out = np.arange(head, len(samples))

    def job(data: Samples, holdout: float) -> learner.LearnJob:
        return learner.LearnJob(data, None, observation_size(encoding), encoding.num_actions,
                                hidden=8, epochs=3, batch=16, learning_rate=1e-2,
                                weight_decay=1e-4, seed=1, holdout=holdout)

    judged = learner.learn(job(samples, 0.25))
    rows = np.arange(head)
    end = samples.starts[head]
    first = Samples(samples.obs[rows], samples.starts[:head + 1], samples.ids[:end],
                    samples.probs[:end], samples.outcome[rows])
    alone = learner.learn(job(first, 0.0))
    for k in LAYERS:  # the same model as one that never saw the held-out games
        assert np.array_equal(judged.arrays[k], alone.arrays[k])
    assert alone.held_out == () and len(judged.held_out) == 3
    model = PolicyValueModel(judged.arrays, {"game": "hill218", "params": PARAMS})
    values = np.array([model.predict(samples.obs[k].astype(np.float32))[1] for k in kept_out])
    results = samples.outcome[kept_out]
    last = judged.held_out[-1]
    assert last.value_loss == pytest.approx(np.mean((values - results) ** 2), abs=1e-3)
    assert last.value_correlation == pytest.approx(np.corrcoef(values, results)[0, 1], abs=1e-3)


def test_a_model_file_round_trips_and_a_broken_one_is_named(tmp_path):
    model = random_model("hill218", PARAMS)
    path = tmp_path / "m.npz"
    model.save(path)
    back = PolicyValueModel.load(path)
    assert back.meta == {"game": "hill218", "params": PARAMS}
    for k in LAYERS:  # float16 on disk
        assert np.allclose(back.arrays[k], model.arrays[k], atol=2e-3)
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(ValueError, match=r"bad\.npz: not a warboard model"):
        PolicyValueModel.load(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="cannot read the model"):
        PolicyValueModel.load(tmp_path / "missing.npz")


def test_self_play_samples_are_decisions_with_visit_shares_and_results():
    samples = play_selfplay(SelfPlayJob("holdtheline", {"scenario": "tutorial"},
                                        {"scenario": "tutorial"}, SearchSpec(8, 0.5), 2, 3))
    encoding = make_encoding("holdtheline", {"scenario": "tutorial"})
    assert len(samples) > 10
    assert samples.obs.shape == (len(samples), observation_size(encoding))
    assert samples.starts[0] == 0 and samples.starts[-1] == len(samples.ids)
    assert np.all(np.diff(samples.starts) >= 2)  # only real choices are kept
    assert samples.ids.min() >= 0 and samples.ids.max() < encoding.num_actions
    for k in range(len(samples)):
        assert samples.probs[samples.starts[k]:samples.starts[k + 1]].sum() == \
            pytest.approx(1.0, abs=1e-5)
    assert set(np.unique(samples.outcome)) <= {-1.0, 0.0, 1.0}
    assert len(set(np.unique(samples.outcome))) in (1, 2)  # a win for one seat is a loss


def test_training_resumed_after_an_interruption_ends_where_an_uninterrupted_run_does(tmp_path):
    pytest.importorskip("torch", reason="the train extra is not installed")
    whole = Trainer(tmp_path / "whole", tiny_config()).train()
    assert [g.generation for g in whole.done] == [1, 2]
    Trainer(tmp_path / "cut", tiny_config(generations=1)).train()  # then "interrupted"
    resumed = Trainer.resume(tmp_path / "cut", generations=2).train()
    assert finished(tmp_path / "cut") == finished(tmp_path / "whole")
    assert resumed.best_generation == whole.best_generation
    for g in (1, 2):
        name = f"models/gen-{g:04d}.npz"
        assert (tmp_path / "cut" / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()
    samples = np.load(tmp_path / "whole" / "samples" / "gen-0002.npz")
    assert len(samples["outcome"]) == whole.done[1].samples > 0


def test_the_train_command_reports_each_generation_and_refuses_a_changed_resume(tmp_path, capsys):
    pytest.importorskip("torch", reason="the train extra is not installed")
    out = tmp_path / "run"
    args = ["train", "hill218", "--quick-start", "--out", str(out), "--generations", "1",
            "--games", "2", "--iterations", "6", "--eval-games", "2", "--hidden", "8",
            "--jobs", "1", "--seed", "3", "--holdout", "0.25"]
    assert main([*args, "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["generation"] for line in lines] == [1]
    assert set(lines[0]) >= {"samples", "policy_loss", "value_loss", "score", "kept", "elo"}
    assert len(lines[0]["held_out"]) == 4  # one an epoch
    assert set(lines[0]["held_out"][0]) == {"policy_loss", "value_loss", "value_correlation"}
    assert (out / "models" / "gen-0001.npz").is_file()
    config = json.loads((out / CHECKPOINT).read_text())["config"]
    assert config["options"] == QUICK and config["params"] == PARAMS
    assert main(args) == 1  # a second run into the same folder
    assert "--resume to go on" in capsys.readouterr().err
    assert main(["train", "hill218", "--out", str(out), "--resume", "--games", "4"]) == 1
    assert "keeps its configuration: drop --games" in capsys.readouterr().err
    assert main(["train", "hill218", "--out", str(out), "--resume", "--generations", "2",
                 "--jobs", "1", "--json"]) == 0
    assert [json.loads(x)["generation"] for x in capsys.readouterr().out.splitlines()] == [2]


def test_training_without_the_train_extra_says_how_to_get_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)  # as if PyTorch were not installed
    assert main(["train", "hill218", "--out", str(tmp_path / "run"), "--jobs", "1"]) == 1
    assert "training needs the 'train' extra: pip install 'warboard[train]'" in \
        capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_elo_of_a_score_is_symmetric_and_finite():
    assert elo_difference(0.5, 20) == 0
    assert elo_difference(0.75, 20) == pytest.approx(-elo_difference(0.25, 20))
    assert elo_difference(0.75, 20) == pytest.approx(190.8, abs=0.1)
    assert 0 < elo_difference(1.0, 20) < 700


def test_the_configuration_refuses_what_cannot_run():
    with pytest.raises(ValueError, match="eval-games must be even"):
        tiny_config(eval_games=3)
    with pytest.raises(ValueError, match="games must be at least 1"):
        tiny_config(games=0)
    with pytest.raises(ValueError, match="keep-score"):
        tiny_config(keep_score=1.5)
    with pytest.raises(ValueError, match="value-weight"):
        tiny_config(value_weight=-0.1)
    with pytest.raises(ValueError, match="weight-decay"):
        tiny_config(weight_decay=-1e-3)
    with pytest.raises(ValueError, match=r"holdout must lie between 0 and 0\.5"):
        tiny_config(holdout=0.6)


def test_a_model_agent_decides_from_its_seats_view_only(tmp_path):
    """Issue 14 point 4: the model's search, like every agent, decides the same whatever the
    opponent's hidden cards are."""
    path = tmp_path / "m.npz"
    random_model("hill218", {"window": 11}).save(path)
    agent = make_agent(f"model:{path}", time_caps=False)
    agent.iterations = 30
    changed = 0
    for i, state in enumerate(random_decision_points(CardGame("hill218"), 4, 7)):
        if i > 5:
            break
        twin = reshuffled(state, seed=i)
        changed += twin.hands != state.hands
        a = decide(agent, state, random.Random(i))
        assert a == decide(agent, twin, random.Random(i))
        assert a in state.legal_actions()
    assert changed >= 3


def test_a_model_agent_plays_the_arena_and_refuses_another_game(tmp_path):
    path = tmp_path / "m.npz"
    random_model("holdtheline", {"scenario": "tutorial"}).save(path)
    spec = MatchSpec("holdtheline", {"scenario": "tutorial"}, (f"model:{path}", "random"), 1)
    result = play_match(spec)
    assert result.decisions[0] > 0 and result.returns[0] == -result.returns[1]
    other = replace(spec, options={"scenario": "trenton"})
    with pytest.raises(ValueError, match="trained on holdtheline"):
        play_match(other)


def test_a_card_model_plays_its_ruleset_with_any_setup_but_no_other_ruleset():
    """Quick start and the handicaps change only the first position: a model trained without
    them reads those games all the same (``GameInfo.setup_options``); another ruleset it
    refuses."""
    standard = random_model("hill218", {"window": 11, "quick_start": False})
    standard.check(CardGame("hill218", QUICK))
    standard.check(CardGame("hill218", {}))
    with pytest.raises(ValueError, match="trained on hill218"):
        standard.check(CardGame("ogre218", {}))
    ogre = random_model("ogre218", {"window": 9, "quick_start": True})
    ogre.check(CardGame("ogre218", {"damaged_ogres": [1, 0]}))


def test_the_models_knowledge_is_its_value_beside_the_evaluation_and_its_policy():
    model = random_model("hill218", PARAMS)
    know = model_knowledge(model)
    state = next(iter(random_decision_points(CardGame("hill218", QUICK), 2, 1)))
    value = know.evaluate(state, 0)
    assert -1 < value < 1 and know.evaluate(state, 1) == pytest.approx(-value)
    assert know.play_priors is not None
    priors = know.play_priors(state, state.legal_actions())
    assert sum(priors) == pytest.approx(1.0) and min(priors) >= 0
    hand = evaluate_cards(state, 0)
    assert model_knowledge(model, 0.0).evaluate(state, 0) == hand
    assert model_knowledge(model, 0.5).evaluate(state, 0) == pytest.approx((hand + value) / 2)


def test_training_on_ray_is_the_same_run(tmp_path):
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    pytest.importorskip("torch", reason="the train extra is not installed")
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True,
             log_to_driver=False)
    try:
        Trainer(tmp_path / "ray", tiny_config(generations=1), backend="ray").train()
    finally:
        ray.shutdown()
    Trainer(tmp_path / "local", tiny_config(generations=1), workers=2).train()
    assert finished(tmp_path / "ray") == finished(tmp_path / "local")
    assert asdict(tiny_config(generations=1)) == \
        json.loads((tmp_path / "ray" / CHECKPOINT).read_text())["config"]


def test_a_compiled_training_run_searches_compiled_and_keeps_it_on_resume(tmp_path):
    """``--compiled``: self-play and judging games search compiled (the card games' C search,
    where it is built); the checkpoint keeps the choice, so a resumed run goes on with it."""
    pytest.importorskip("torch", reason="the train extra is not installed")
    from warboard.hill218 import fast

    spec = SearchSpec(8, 0.5, compiled=True)
    agent = spec.agent("selfplay")
    assert agent.native and not SearchSpec(8, 0.5).agent("selfplay").native
    game = CardGame("hill218", QUICK)
    state = next(s for s in random_decision_points(game, 1, clone=True, skip_forced=True)
                 if s.phase == "play")
    decide(agent, state, random.Random(1))
    assert agent.last_native == fast.available()
    Trainer(tmp_path / "run", tiny_config(generations=1, compiled=True)).train()
    resumed = Trainer.resume(tmp_path / "run", generations=2)
    assert resumed.run.config.compiled
    assert [g.generation for g in resumed.train().done] == [1, 2]
