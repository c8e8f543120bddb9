"""Batched rollouts (BatchedPlant.Rollout) spread over a Dask cluster (``dask.distributed``):
the optional extra ``distributed`` (``pip install mallard[distributed]``).

A model goes to the workers as a picklable description, :class:`PlantSpec` (a model file,
its text, or a module-level function that builds the plant), never as a plant: each worker
process builds its plant and BatchedPlant once per spec and keeps it (:func:`batched_plant`),
so that a model is built, and its kernels loaded from numba's cache or compiled, once per
worker, not per task; :func:`warm_up` does that on every worker before the first chunk.

The states are cut into chunks of ``chunk_size`` states, or of the sizes in a sequence
``chunk_size`` (as dask.array's ``chunks``), one Dask task each, run by BatchedPlant.Rollout
on the worker. Each worker takes the next chunk as it finishes one, so with equal chunks the
last wave can leave a worker idle for up to a chunk's time while the others finish theirs;
:func:`balanced_chunks` gives sizes that halve wave by wave (4 chunks per worker, the last
ones an eighth of a worker's share), so that the workers finish together, with a first wave
of the smallest too, so that they start soon. Over TCP, a chunk's inputs (its q0, v0,
actuation and PD targets) travel inside its task where the input arrays are small (at most
``INLINE``, 4 MB, in all: the Panda's 16 000 states, 2.3 MB), all the chunks' tasks in one
graph, as sampled ones (no round trip per chunk); larger ones are scattered to a worker and
its task runs there, rather than travelling inside the task (the scheduler unpickles a
task's arguments and pickles them again for the worker: for 16 000 acrobot rollouts of 1000
steps, 128 MB of actuation, that took the client's process, the LocalCluster's scheduler in
it, 0.37 s of CPU, against 0.13 s scattered through the scheduler and 0.05 s straight to the
workers). Scattered chunks go out as a sliding window (two per worker thread, then the next
one to the worker that finished one), so that the work balances over the workers as it does
when the scheduler hands out sampled chunks, and a worker holds two chunks' inputs. Or a
:class:`Sampler` (a module-level function drawing a block of states' inputs, and a seed)
draws each chunk's inputs in its task, on the worker: nothing is sent but the sampler, and
all the chunks' tasks go to the scheduler in one graph, so the client's work per run is the
scheduling (and the results: :func:`rollout_to_npz` leaves them on the workers too). The
results of the chunks that finished together are fetched in one gather while the others
run.

Where every worker shares the client's machine (a LocalCluster, or workers started beside
the client: each worker reads back a file the client writes in /dev/shm, so that a worker
in another container or on another machine answers no), nothing goes over TCP but the
tasks: the input arrays are copied once into shared memory (a file in /dev/shm, a tmpfs),
each chunk's task carrying its name and maps its rows, and the workers write the states
into shared memory too, copied into the client's array as each chunk finishes (its task
returns its ok flags and messages only); all the chunks' tasks go to the scheduler in one
graph, as sampled ones. A tmpfs allocates pages as they are first written (~0.6 ms of CPU
per MB, more than Dask's scatter over TCP) and frees them when the file goes, so the
client keeps those segments for the next call (two, at most, in a pool, removed at exit,
by :func:`release_shared_memory`, or by multiprocessing's resource tracker if
the client is killed; a run that fails removes those it used, as its tasks may still
write into them): the next copies go into pages already there (0.05 ms per MB). The
``shared`` argument of :func:`rollout` and :func:`rollout_to_npz` says which way: None
(the default) shared memory where every worker sees it, False over TCP always, True
shared memory or ValueError. :func:`shared_empty` makes an array in shared memory: given
to :func:`rollout` as ``out``, the workers write the states straight into it (nothing
copied on the client; its file removed when the array goes). With a Sampler, the states
go through shared memory when ``num_steps`` is given (their shape known before the first
chunk: nq + nv asked of a worker once per spec). A client of a LocalCluster
scatters and gathers straight from its workers whatever its ``direct_to_workers`` (through
the scheduler, in the client's own process, the data would be received and sent again
there). What a chunk costs the client's process (the LocalCluster's scheduler in it; 16 000
acrobot rollouts × 1000 steps in 8 chunks on 2 workers, CPU beyond the idle rate, at a load
of 14–19): ~3–5 ms of task handling, ~2–3 ms more to fetch its 6.4 MB of states, ~7–8 ms
more to scatter its 16 MB of actuation (Dask's own calls, alone, at a load of ~13: a scatter
~1 ms plus ~0.2 ms per MB, a task submitted alone 1–2 ms, in one graph with 29 others ~0.6
ms); ``benchmarks/rollouts.py --dask`` prints these costs, and the ratio of two workers over
one they allow where the client's process shares the workers' cores. Results do not depend
on the chunking or on the number of workers: a state's rollout is computed alone in its
lanes, bit for bit the same in any group (kernels.rollouts). A task whose worker dies is run
again on another worker by Dask's scheduler (``distributed.scheduler.allowed-failures``
times); a chunk whose inputs or results died with their worker is sent (or drawn) and
submitted again (up to ``retries`` + 2 times); one that raises is retried ``retries`` times.
Chunks are numbered, so a chunk run twice is gathered, or written, once.

Two ways to get the results:

* :func:`rollout`: gathered on the client as arrays (the states (N, S, nq + nv) and each
  state's ok flag), for what fits in the client's memory;
* :func:`rollout_to_npz`: each chunk written by its worker as ``chunk-XXXXXX.npz`` in a
  directory every worker can write (a shared file system), holding ``index`` (the states'
  indices), ``q0``, ``v0``, ``x`` (S × (nq + nv) states per state), ``ok`` and ``status`` (the
  status codes' messages, '' for ok), written under a temporary name and renamed, so a chunk
  is never seen half written. NumPy's .npz, rather than Parquet or zarr: a trajectory is a
  dense tensor, which a columnar table stores awkwardly (Parquet), a chunk file per task needs
  no coordination between writers and no extra dependency (zarr, pyarrow), and
  ``np.load`` reads it anywhere; :func:`load_npz` joins the chunks in state order. Memory on
  the client stays that of the chunk list; on a worker, a chunk's arrays.

On a real cluster, start a scheduler and workers (``dask scheduler``, then ``dask worker
tcp://HOST:8786 --nworkers N --nthreads 1`` on each machine, mallard installed there with the
extra), and pass ``Client("tcp://HOST:8786")`` (with ``direct_to_workers=True`` if the client
can reach the workers: the inputs and results then skip the scheduler's hop, as Dask's own
scatter and gather do with it); one thread per worker process (the rollouts
run their own threads: BatchedPlant's ``num_threads``, 1 by default here, as each worker
process takes a core). ``mallard rollout ... --scheduler tcp://HOST:8786`` does this from the
command line. Where the workers share their cores with the client or the scheduler (a
LocalCluster), Dask's periodic work, done even idle, takes a share of them: the event loops'
health ticks every 20 ms, the system and memory monitors, the workers' statistical profiler
every 10 ms (a LocalCluster of two workers: 0.068 s of CPU per second, 0.018 s/s with
``DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL=1s``,
``DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL=5s``,
``DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL=1s`` and
``DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False`` in the environment of the processes,
as benchmarks/rollouts.py sets them).

Example::

    from dask.distributed import Client, LocalCluster
    from mallard.distributed import PlantSpec, balanced_chunks, rollout

    spec = PlantSpec.from_file("acrobot.urdf", time_step=1e-3)
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        X, ok, messages = rollout(client, spec, q0, v0, num_steps=1000, every=10,
                                  chunk_size=balanced_chunks(len(q0), workers=2))
"""

from mallard.distributed._rollouts import (
    PlantSpec,
    Sampler,
    balanced_chunks,
    batched_plant,
    load_npz,
    rollout,
    rollout_to_npz,
    warm_up,
)
from mallard.distributed._shared import release_shared_memory, shared_empty

__all__ = [
    "PlantSpec",
    "Sampler",
    "balanced_chunks",
    "batched_plant",
    "load_npz",
    "release_shared_memory",
    "rollout",
    "rollout_to_npz",
    "shared_empty",
    "warm_up",
]
