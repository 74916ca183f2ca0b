"""Where a run's tasks execute: in this process, in local worker processes, or on a Ray cluster.

``arena``, ``selfplay`` and ``fuzz`` cut a run into tasks (a chunk of games, a shard) that are pure functions
of their arguments, and give each task a key (its position in the run). :func:`execute` runs them on a backend
and yields ``(key, result)`` pairs in completion order, each key exactly once; the command puts the results
back in key order, so the output never depends on the backend or the number of workers.

Faults: a task whose worker dies is run again (Ray retries it itself; the local pool is rebuilt and the
unfinished tasks resubmitted), and a result that arrives twice is dropped, so a dead worker loses no game and
duplicates none. Leaving the iterator early (an interrupt, or a command that has seen enough) cancels what is
still pending.

A testing hook: with ``MEEPLEX_FAULT_DIR=DIR`` in the workers' environment and a file ``DIR/armed``, the first
task to get half-way through its work renames it to ``DIR/fired-PID`` and kills its own worker (SIGKILL).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from .common import CliError

BACKENDS = ("local", "ray")
# A task may lose its worker this many times before the run gives up on it (a task that kills every worker
# it runs on, a Rust abort say, must not loop for ever).
MAX_RETRIES = 3
RAY_INSTALL = "pip install 'meeplex[ray]'"
_PACKAGE = "meeplex"  # what the cluster's workers must be able to import (a test points it elsewhere)

Task = tuple[int, tuple[Any, ...]]  # (key, arguments)


# ---------------------------------------------------------------------------------------------------------
# The testing hook


def fault_point() -> None:
    """Kill this worker process if the fault hook is armed, and disarm it (only one task dies)."""
    directory = os.environ.get("MEEPLEX_FAULT_DIR")
    if not directory:
        return
    try:
        # A rename succeeds once: of all the workers that get here, exactly one dies.
        os.rename(os.path.join(directory, "armed"), os.path.join(directory, f"fired-{os.getpid()}"))
    except OSError:
        return
    os.kill(os.getpid(), signal.SIGKILL)


# ---------------------------------------------------------------------------------------------------------
# Backends


@dataclass
class Backend:
    """A chosen backend: ``local`` with ``jobs`` processes (1: this process), or ``ray`` with at most ``jobs``
    tasks in flight on the cluster at ``address`` (None: a local Ray started for the run)."""

    name: str = "local"
    jobs: int = 1
    address: str | None = None
    owns_ray: bool = False
    workers: int = 1  # the parallelism actually available (the cluster's CPUs on Ray)
    retries: int = field(default=0)  # tasks run again after their worker died

    def describe(self) -> str:
        if self.name == "ray":
            where = self.address or "local"
            return f"{self.jobs} task{'s' if self.jobs > 1 else ''} in flight on Ray ({where})"
        return f"{self.jobs} job{'s' if self.jobs > 1 else ''}"

    def close(self) -> None:
        if self.owns_ray:
            import ray

            ray.shutdown()
            self.owns_ray = False


def open_backend(name: str, jobs: int | None, address: str | None) -> Backend:
    """Check the options and, for Ray, connect (or start a local Ray); errors are one-line CliErrors."""
    if name not in BACKENDS:
        raise CliError(f"unknown backend {name!r} (known: {', '.join(BACKENDS)})")
    if name == "local":
        if address is not None:
            raise CliError("--address needs --backend ray")
        return Backend("local", jobs or 1)
    try:
        import ray
    except ImportError:
        raise CliError(f"--backend ray needs Ray, which is not installed: {RAY_INSTALL}") from None
    owns = False
    if address is not None:
        _check_reachable(address)
    if not ray.is_initialized():
        # Ray's C++ core logs its connection retries as warnings on stderr: only errors, and ours on one line.
        os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "error")
        try:
            ray.init(
                # "local" always starts a new Ray: without it, ray.init() joins any cluster it finds here.
                address=address if address is not None else "local",
                num_cpus=None if address is not None else jobs,
                include_dashboard=False,
                logging_level=logging.ERROR,
                log_to_driver=False,
                configure_logging=True,
            )
        except Exception as exc:  # ConnectionError, RuntimeError, ValueError: Ray's own words, on one line
            where = f"at {address}" if address else "locally"
            raise CliError(f"cannot start or join Ray {where}: {_first_line(exc)}") from None
        owns = True
    backend = Backend("ray", 1, address, owns_ray=owns)
    try:
        _check_package(address)
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        cpus = int(resources.get("CPU", 1))
    except BaseException:
        backend.close()
        raise
    backend.workers = max(1, cpus)
    backend.jobs = jobs or backend.workers
    return backend


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return " ".join(text[0].split()) if text else type(exc).__name__


def _check_reachable(address: str) -> None:
    """Fail fast on an address where nothing listens (``ray.init`` would retry for a minute)."""
    if address in ("auto", "local"):
        return
    host_port = address.removeprefix("ray://")
    host, sep, port = host_port.rpartition(":")
    if not sep or not port.isdigit():
        raise CliError(f"bad --address {address!r}: expected HOST:PORT, ray://HOST:PORT or auto")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise CliError(f"cannot reach a Ray cluster at {address}: {exc.strerror or exc}") from None


_PROBE_SOURCE = """
def probe(name):
    import importlib
    module = importlib.import_module(name)
    return getattr(module, "__version__", "?")
"""


def _probe() -> Callable[[str], str]:
    # Built outside any importable module, so that Ray ships it by value: a worker without meeplex can still
    # run it and say so, instead of failing to unpickle a function of a module it lacks.
    namespace: dict[str, Any] = {}
    exec(_PROBE_SOURCE, {"__name__": "meeplex_ray_probe"}, namespace)
    probe: Callable[[str], str] = namespace["probe"]
    return probe


def _check_package(address: str | None) -> None:
    import ray

    import meeplex

    remote = ray.remote(num_cpus=0, max_retries=0)(_probe())
    where = f"the Ray cluster at {address}" if address else "the local Ray"
    try:
        version = ray.get(remote.remote(_PACKAGE), timeout=180)
    except Exception as exc:
        cause = getattr(exc, "cause", None) or exc
        if isinstance(cause, ImportError) or "No module named" in str(exc):
            raise CliError(
                f"{where} cannot import {_PACKAGE}: install meeplex {meeplex.__version__} on every node"
                f" ({RAY_INSTALL})"
            ) from None
        raise CliError(f"{where} failed a test task: {_first_line(cause)}") from None
    if _PACKAGE == "meeplex" and version != meeplex.__version__:
        raise CliError(
            f"{where} runs meeplex {version}, this machine {meeplex.__version__}: use the same one"
        )


# ---------------------------------------------------------------------------------------------------------
# Running tasks


def execute(fn: Callable[..., Any], tasks: Iterable[Task], backend: Backend) -> Iterator[tuple[int, Any]]:
    """``(key, fn(*args))`` for every task, in completion order, each key once. ``tasks`` is read lazily, a
    few tasks per worker ahead, so that it may be endless or stop on a clock (fuzz --minutes)."""
    if backend.name == "ray":
        yield from _execute_ray(fn, tasks, backend)
    elif backend.jobs <= 1:
        for key, args in tasks:
            yield key, fn(*args)
    else:
        yield from _execute_pool(fn, tasks, backend)


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the parent cancels the run; workers must not print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _new_pool(jobs: int) -> ProcessPoolExecutor:
    context = multiprocessing.get_context("spawn")  # no fork of a process that runs rich's refresh thread
    return ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_ignore_interrupts)


def _execute_pool(
    fn: Callable[..., Any], tasks: Iterable[Task], backend: Backend
) -> Iterator[tuple[int, Any]]:
    source = iter(tasks)
    limit = 2 * backend.jobs
    pool = _new_pool(backend.jobs)
    pending: dict[Future[Any], Task] = {}
    retry: list[Task] = []
    losses: dict[int, int] = {}
    exhausted = finished = False
    try:
        while True:
            while len(pending) < limit and (retry or not exhausted):
                if retry:
                    task = retry.pop(0)
                else:
                    try:
                        task = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                try:
                    pending[pool.submit(fn, *task[1])] = task
                except BrokenProcessPool:
                    retry.insert(0, task)
                    break
            if not pending:
                if retry:  # the pool broke before anything could be submitted
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = _new_pool(backend.jobs)
                    continue
                finished = True
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                task = pending.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken = True
                    _lost(task, losses)
                    retry.append(task)
                    continue
                yield task[0], result
            if broken:
                # A worker died: every future of this pool fails; run their tasks again in a new pool.
                for future, task in pending.items():
                    future.cancel()
                    retry.append(task)
                pending.clear()
                retry.sort(key=lambda t: t[0])
                pool.shutdown(wait=False, cancel_futures=True)
                backend.retries += 1
                pool = _new_pool(backend.jobs)
    finally:
        # After an interrupt, or a consumer that has seen enough, do not wait for the tasks still running.
        pool.shutdown(wait=finished, cancel_futures=True)


def _lost(task: Task, losses: dict[int, int]) -> None:
    key = task[0]
    losses[key] = losses.get(key, 0) + 1
    if losses[key] > MAX_RETRIES:
        raise CliError(f"task {key} lost its worker {losses[key]} times: giving up")


def _execute_ray(
    fn: Callable[..., Any], tasks: Iterable[Task], backend: Backend
) -> Iterator[tuple[int, Any]]:
    import ray
    from ray.exceptions import RayTaskError

    remote = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(fn)
    source = iter(tasks)
    limit = backend.jobs
    pending: dict[Any, Task] = {}
    seen: set[int] = set()
    exhausted = False
    try:
        while True:
            while len(pending) < limit and not exhausted:
                try:
                    task = next(source)
                except StopIteration:
                    exhausted = True
                    break
                pending[remote.remote(*task[1])] = task
            if not pending:
                return
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                task = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except RayTaskError as exc:
                    # An exception of the task itself: raise it as it was (a CliError stays one line).
                    cause = exc.cause if isinstance(exc.cause, BaseException) else exc
                    raise cause from None
                except ray.exceptions.RayError as exc:
                    raise CliError(f"task {task[0]} failed on Ray: {_first_line(exc)}") from None
                if task[0] not in seen:  # Ray retries do not show here, but never count a key twice
                    seen.add(task[0])
                    yield task[0], result
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def noop(value: int) -> int:
    """A task that does nothing: what ``benches/bench_distributed.py`` times to measure the cost of a task."""
    return value


def in_order(results: Iterable[tuple[int, Any]], first: int = 0) -> Iterator[tuple[int, Any]]:
    """Hold results back until every earlier key is in: ``(key, result)`` for keys first, first+1, ..."""
    waiting: dict[int, Any] = {}
    next_key = first
    for key, result in results:
        waiting[key] = result
        while next_key in waiting:
            yield next_key, waiting.pop(next_key)
            next_key += 1


__all__ = ["BACKENDS", "Backend", "execute", "fault_point", "in_order", "noop", "open_backend"]
