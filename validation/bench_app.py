"""sdc app at 10^6 records: each action's wall time through the session (the server adds only
JSON), its longest silence (the most seconds without a stage line or a progress count, which
the page shows as it comes: sdc._stages.listening, as the server listens) and the peak memory. Run: python -m validation.bench_app [FOLDER] (default /tmp/sdc-app-1m).
The file: the bundled example drawn with replacement to 10^6 records (seed 1), ages jittered."""
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np
import sdc
from sdc.app.session import AppSession
from sdc.app import hierarchies, steps
from sdc._stages import listening

rng = np.random.default_rng(1)
ex = sdc.load_example()
big = ex.iloc[rng.integers(0, len(ex), 1_000_000)].reset_index(drop=True)
big["subject_id"] = [f"S{i:07d}" for i in range(len(big))]
big["age"] = np.clip(big["age"] + rng.integers(-3, 4, len(big)), 0, 100)
out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/sdc-app-1m")
out.mkdir(parents=True, exist_ok=True)
big.to_csv(out / "big.csv", index=False)
s = AppSession(out / "big.csv", out / "exp", out / "work")
def t(name, f):
    heard = [(time.monotonic(), "(start)")]
    with listening(lambda message, done, total: heard.append((time.monotonic(), message))):
        out = f()
    heard.append((time.monotonic(), "(answer)"))
    dt = heard[-1][0] - heard[0][0]
    gap, after = max((b[0] - a[0], a[1]) for a, b in zip(heard, heard[1:]))
    size = len(json.dumps(out, default=str))
    print(f"{name:12s} {dt:7.1f} s  response {size/1e6:.2f} MB  {len(heard) - 2:4d} updates, "
          f"longest silence {gap:6.1f} s (after {after[:50]!r})", flush=True)
    return out
t("open", lambda: s.open("start"))
t("preview", s.preview)
t("identify", s.identify)
roles = {"categorical_keys": ["sex", "region", "marital_status"], "continuous_keys": [], "sensitive": ["diagnosis"], "weights": "weight"}
t("roles", lambda: s.set_roles(roles, {"k": 3, "l": 2}))
t("assess", s.assess)
t("add recode", lambda: steps.add_step(s, {"method": "pram", "variables": ["marital_status"], "pd": 0.8}))
t("add supp", lambda: steps.add_step(s, {"method": "local_suppression", "keys": ["sex", "region", "marital_status"], "k": 3}))
t("undo", s.undo)
t("hierarchy", lambda: hierarchies.build_hierarchy(s, "age", "intervals", "5, 10, 20"))
t("run", lambda: steps.run_plan(s))
t("export", lambda: steps.export_run(s))
print("peak RSS GB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6)
