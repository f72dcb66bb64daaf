"""Batches on a Ray cluster (silvics/cluster.py): a Ray instance started on this machine alone
plays the same games as the local processes, and gives the same figures for
the same seed, for `simulate` and `balance` alike. `.ci/run` installs Ray (the `ray` extra);
elsewhere, without it, these tests are skipped saying so."""
import pytest

from conftest import run_cli
from silvics import games
from silvics.interpreter.simulate import simulate

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'silvics[ray]' (.ci/run does)")


@pytest.fixture(scope="module")
def cluster():
    from silvics import cluster as module
    run = module.runner()
    yield run
    ray.shutdown()


def test_a_local_ray_instance_is_this_machine_alone(cluster):
    """A new cluster of one node, this machine, without the dashboard (Ray's servers listen on
    every interface whatever it is asked: docs/cli.md says so, and to keep a firewall)."""
    alive = [node for node in ray.nodes() if node["Alive"]]
    assert len(alive) == 1 and alive[0]["NodeManagerAddress"] == ray.util.get_node_ip_address()
    assert not ray.get_runtime_context().gcs_address.startswith("ray://")
    assert ray._private.worker.global_worker.node.address_info.get("webui_url") in (None, "")


def test_ray_plays_the_same_games_as_local_processes(cluster):
    ir = games.load("forest-shuffle")
    here = simulate(ir, 2, 24, seed=5, agents=("random", "forester"), workers=2, keep=True)
    there = simulate(ir, 2, 24, seed=5, agents=("random", "forester"), workers=2, keep=True, runner=cluster)
    assert there.results == here.results
    assert (there.totals, there.wins, there.lengths) == (here.totals, here.wins, here.lengths)


def test_simulate_and_balance_take_the_ray_backend(cluster, tmp_path):
    argv = ("simulate", "four-forests", "--games", 30, "--players", 2)
    local = run_cli(*argv)[1]
    remote = run_cli(*argv, "--backend", "ray")[1]
    cut = lambda out: out.split(")\n", 1)[1]        # noqa: E731  (the header's games/s differ)
    assert cut(remote) == cut(local)
    for backend in ("local", "ray"):
        status, _, err = run_cli("balance", "four-forests", "--games", 8, "--agents", "random,gardener",
                                 "--backend", backend, "-o", tmp_path / backend)
        assert status == 0, err
    for name in ("index.md", "figures.json", "matrix.png"):
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes()


def test_an_address_needs_the_ray_backend_and_a_cluster_that_answers():
    status, _, err = run_cli("simulate", "four-forests", "--games", 2, "--address", "127.0.0.1:6379")
    assert status == 2 and "--address goes with --backend ray" in err
