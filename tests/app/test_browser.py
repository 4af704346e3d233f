"""``sdc app`` in a real browser (headless Chromium driven by Selenium): the whole workflow on
the bundled example — open, roles, assess, a recode and a local suppression added and a third
step undone, a hierarchy built, compare, a sweep of the suppression's k on the risk-utility plane, export — with the numbers shown equal to the CLI's on the same plan, the
exported plan rerun by ``sdc protect`` to the same release, and a request without the token
refused. Screenshots of every page: SDC_APP_SCREENSHOTS=docs/img writes docs/app.md's."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sdc
from tests.app.conftest import Running, serving
from tests.helpers import run_cli

pytestmark = pytest.mark.browser

PAGES = ("data", "identify", "assess", "protect", "compare", "export")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from tests.conftest import _required

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        webdriver = None
    if not (chromium and driver_path and webdriver):
        reason = ("the app's browser test needs chromium, chromium-driver and python3-selenium "
                  "(scripts/install.sh --with-browser)")
        if _required("SDC_REQUIRE_BROWSER"):
            pytest.fail(f"{reason} (required here: SDC_REQUIRE_BROWSER=1)", pytrace=False)
        pytest.skip(reason)
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1100"):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(executable_path=driver_path), options=opts)
    yield d
    d.quit()


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with serving(tmp_path_factory.mktemp("browser-app")) as r:
        yield r


def _wait(d: Any, test: Any, timeout: float = 600) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(d, timeout, poll_frequency=0.2).until(test)


def _idle(d: Any) -> None:
    from selenium.webdriver.common.by import By

    _wait(d, lambda d: not d.find_element(By.ID, "busy").is_displayed())
    err = d.find_element(By.ID, "error")
    assert not err.is_displayed(), err.text


def _click(d: Any, css: str) -> None:
    from selenium.webdriver.common.by import By

    d.find_element(By.CSS_SELECTOR, css).click()
    _idle(d)


def _shot(d: Any, name: str, tmp: Path) -> None:
    out = Path(os.environ.get("SDC_APP_SCREENSHOTS") or tmp)
    out.mkdir(parents=True, exist_ok=True)
    height = d.execute_script("return Math.min(document.body.scrollHeight, 2400)")
    d.set_window_size(1280, max(700, int(height) + 40))
    if os.environ.get("SDC_APP_SCREENSHOTS"):  # for the docs: let the resized page (and its frames) paint
        import time

        time.sleep(1.5)
    assert d.save_screenshot(str(out / f"app-{name}.png"))
    d.set_window_size(1280, 1100)


def _rows(d: Any, box: str, caption: str) -> list[list[str]]:
    """The cells of the table under `caption` inside #box."""
    return d.execute_script("""
        const box = document.getElementById(arguments[0]);
        const cap = Array.from(box.querySelectorAll('p.caption')).find(p => p.textContent === arguments[1]);
        const t = cap.nextElementSibling;
        return Array.from(t.rows).slice(1).map(r => Array.from(r.cells).map(c => c.textContent));""", box, caption)


def _step(d: Any, method: str, variables: list[str], params: dict[str, str]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(d.find_element(By.ID, "method")).select_by_value(method)
    choose = Select(d.find_element(By.ID, "step-variables"))
    for v in variables:
        choose.select_by_value(v)
    for name, value in params.items():
        d.find_element(By.CSS_SELECTOR, f'#method-form input[data-param="{name}"]').send_keys(value)
    _click(d, "#add-step")


def test_the_whole_workflow_in_the_browser(browser: Any, app: Running, tmp_path: Path,
                                           capsys: pytest.CaptureFixture) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    d.get(app.url.split("?")[0])
    assert "token" in d.find_element(By.TAG_NAME, "body").text  # refused without the token
    d.get(app.url)
    _idle(d)
    _click(d, "#open-example")
    _wait(d, lambda d: "4,125 records" in d.find_element(By.ID, "file").text)
    _wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#preview table")) == 2)
    assert [r[0] for r in _rows(d, "preview", "Columns")] == list(sdc.load_example().columns)
    _shot(d, "data", tmp_path)

    _click(d, 'nav button[data-page="identify"]')
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#suggested table"))
    _click(d, "#apply-roles")  # the example's roles, unchanged
    _shot(d, "identify", tmp_path)

    _click(d, 'nav button[data-page="assess"]')
    _click(d, "#run-assess")
    shown = _rows(d, "verdicts", "Verdicts, every scenario")
    ex = tmp_path / "ex"
    sdc.datasets.save_example(ex)
    cli = sdc.assess(sdc.load_config(ex / "example.toml")).to_frame()
    assert [r[5] for r in shown] == cli["verdict"].tolist() and [r[1] for r in shown] == cli["measure"].tolist()
    _shot(d, "assess", tmp_path)

    _click(d, 'nav button[data-page="protect"]')
    _wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#method option"))
    _step(d, "global_recode", ["age"], {"width": "10", "closed": "left"})
    _step(d, "local_suppression", ["age", "sex", "region", "marital_status"], {"k": "3"})
    _step(d, "pram", ["region"], {"pd": "0.8"})
    assert len(d.find_elements(By.CSS_SELECTOR, "#plan tr")) == 4
    _click(d, "#undo")  # the pram step goes
    assert len(d.find_elements(By.CSS_SELECTOR, "#plan tr")) == 3
    # the hierarchy editor: region's values filled in, grouped, the hierarchy's table and its level buttons
    from selenium.webdriver.support.ui import Select

    Select(d.find_element(By.ID, "hier-variable")).select_by_value("region")
    Select(d.find_element(By.ID, "hier-kind")).select_by_value("groups")
    _click(d, "#hier-fill")
    filled = d.find_element(By.ID, "hier-groups").get_attribute("value").splitlines()
    assert len(filled) == 9 and "London = London" in filled
    grouped = "\n".join(f"{v} = {'North' if 'North' in v or v == 'Yorkshire' else 'Midlands' if 'Midlands' in v else 'South'}"
                        for v in (line.split(" = ")[0] for line in filled))
    d.execute_script("document.getElementById('hier-groups').value = arguments[0]", grouped)
    _click(d, "#hier-build")
    levels = [b.text for b in d.find_elements(By.CSS_SELECTOR, "#hier-levels-buttons button")]
    assert levels == ["Recode region to level 1 (3 labels)", "Recode region to level 2 (1 label)"]
    assert len(d.find_elements(By.CSS_SELECTOR, "#hier-table table tr")) == 10
    _shot(d, "protect", tmp_path)

    _click(d, 'nav button[data-page="compare"]')
    _click(d, "#run-plan")
    run = dict((r[0], r[1]) for r in _rows(d, "run-summary", "The run"))
    plan = [{"method": "global_recode", "variables": ["age"], "width": 10, "closed": "left"},
            {"method": "local_suppression", "keys": ["age", "sex", "region", "marital_status"], "k": 3}]
    same = sdc.protect_data(sdc.io.read_data(ex / "health_survey.csv"), {"plan": {"seed": 20240611}, "steps": plan},
                            config=sdc.load_config(ex / "example.toml", data_given=True)).summary()
    expected = dict(zip(same["statistic"], same["value"]))
    label = dict(zip(same["statistic"], same["description"]))  # the page shows each figure by its description
    assert run[label["cells_changed"]] == f"{expected['cells_changed']:,}" and run[label["records_out"]] == "4,125"
    assert run[label["seed"]] == "20240611"  # an identifier, not a quantity: no thousands separators
    _shot(d, "compare", tmp_path)

    # the sweep of the local suppression's k: a point per setting and the original data, details on hover
    from selenium.webdriver.common.action_chains import ActionChains

    Select(d.find_element(By.ID, "sweep-step")).select_by_value("1")
    assert Select(d.find_element(By.ID, "sweep-param")).first_selected_option.text == "k"
    d.find_element(By.ID, "sweep-values").send_keys("2, 3, 5")
    _click(d, "#run-sweep")
    points = d.find_elements(By.CSS_SELECTOR, "#sweep-plane circle")
    assert len(points) == 4
    ActionChains(d).move_to_element(points[2]).perform()
    _wait(d, lambda d: d.find_element(By.ID, "sweep-hover").text.startswith("setting 2: local_suppression k=3;"))
    d.execute_script("document.getElementById('sweep-step').scrollIntoView()")
    out = Path(os.environ.get("SDC_APP_SCREENSHOTS") or tmp_path)
    assert d.save_screenshot(str(out / "app-sweep.png"))

    _click(d, 'nav button[data-page="export"]')
    _click(d, "#run-export")
    command = d.find_element(By.CSS_SELECTOR, "#exported pre").text
    _shot(d, "export", tmp_path)
    status, _, err = run_cli(capsys, *command.split()[1:])
    assert status == 0, err
    folder = Path(command.split("--out")[1].strip()).parent
    assert (folder / "rerun" / "released.csv").read_bytes() == (folder / "release" / "released.csv").read_bytes()
    # the console holds only the first, token-less request's refusal (and the favicon's)
    logs = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert all("403" in m for m in logs), logs
