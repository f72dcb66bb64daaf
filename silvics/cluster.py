"""Batches past one machine: the games of `simulate` and `balance` played on a Ray cluster.

`runner(address)` connects to a cluster (`ray start --head` on one machine, `ray start
--address HEAD:6379` on the others, then `--address HEAD:6379` here), or with no address
starts a Ray instance of this machine alone: a new single-node cluster, without its dashboard,
that no other node joins (Ray's own servers still listen on every interface, whatever the
address asked for: on a shared network, keep a firewall in front of them). It
returns a runner for `interpreter.simulate.simulate`: the chunks of seeds become Ray tasks,
each loading the IR (put in the object store once) and playing its games with the same code
a local worker runs; the results are added up in seed order, so the figures are the same as a
local run's for the same seed. Ray is an optional extra (`ray`: extras.py says how to install it).
"""

from __future__ import annotations

import logging

from silvics.extras import require

_LOADED: dict = {}  # in a Ray worker: the IR of the last batch, by its text's hash


class ClusterError(RuntimeError):
    """Ray is missing, or the cluster cannot be reached."""


def runner(address: str | None = None):
    require("ray", "ray", what="--backend ray")
    import ray

    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            else:  # this machine alone: a new cluster of one node, no dashboard
                ray.init(include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as error:
            raise ClusterError(
                f"cannot reach the Ray cluster at {address or 'this machine'}: {error}"
            ) from None
    task = ray.remote(_chunk)

    def run(ir_text, players, names, setup, jobs):
        shared = ray.put(ir_text)
        pending = [task.remote(shared, players, names, setup, start, count) for start, count in jobs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])

    return run


def _chunk(ir_text: str, players, names, setup, start: int, count: int):
    """A Ray task: the games of one chunk of seeds (the IR decoded once per worker and batch)."""
    import hashlib

    from silvics.interpreter.ir import loads
    from silvics.interpreter.simulate import play_chunk

    key = hashlib.sha256(ir_text.encode()).hexdigest()
    if key not in _LOADED:
        _LOADED.clear()
        _LOADED[key] = loads(ir_text)
    return play_chunk(_LOADED[key], players, names, setup, start, count)
