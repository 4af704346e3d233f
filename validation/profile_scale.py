"""Where a whole run spends its time and memory: one ``sdc`` command run in this process with
stage lines on, each stage line followed by the process's resident memory then and its peak so far
(``/proc/self/status``), and optionally a cProfile of the run.

    python -m validation.profile_scale [--prof OUT.prof] -- assess FILE --config ... --out DIR

Used to find what issue 33's runs (validation/bench_scale.py) compute twice or hold too long.
"""

from __future__ import annotations

import argparse
import sys
import time


def _mem() -> str:
    with open("/proc/self/status") as fh:
        d = dict(line.split(":", 1) for line in fh)
    return f"rss {int(d['VmRSS'].split()[0]) / 1024:7.0f} MB, peak {int(d['VmHWM'].split()[0]) / 1024:7.0f} MB"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prof", help="write a cProfile of the run here")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="the sdc command line (after --)")
    a = ap.parse_args(argv)
    args = a.args[1:] if a.args[:1] == ["--"] else a.args
    import sdc._stages as stages

    t0, cpu0 = time.perf_counter(), time.process_time()
    plain = stages.stage

    def stage(message: str) -> None:
        print(f"{time.perf_counter() - t0:7.2f} s wall {time.process_time() - cpu0:7.2f} s cpu  {_mem()}  {message}",
              file=sys.stderr, flush=True)

    stages.stage = stage
    for mod in list(sys.modules.values()):  # modules that imported stage by name
        if getattr(mod, "stage", None) is plain:
            mod.stage = stage
    from sdc.cli.main import main as sdc_main

    import importlib
    import pkgutil

    import sdc
    for info in pkgutil.walk_packages(sdc.__path__, "sdc."):
        if info.name.startswith(("sdc.app", "sdc.engines.dask")):
            continue
        try:
            mod = importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - optional dependencies
            continue
        if getattr(mod, "stage", None) is plain:
            mod.stage = stage
    if a.prof:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    try:
        sdc_main(args)
    except SystemExit:
        pass
    finally:
        if a.prof:
            prof.disable()
            prof.dump_stats(a.prof)
        stage("end")


if __name__ == "__main__":
    main()
