"""Progress under a listener (sdc._stages.listening): stage lines and bar counts reach the
callback on the listening thread only, and nothing is drawn."""

from __future__ import annotations

import threading

from sdc._stages import listening, stage
from sdc.core.progress import ListenedBar, progress_bar


def test_a_listener_hears_stages_and_counts_and_nothing_is_drawn(capsys) -> None:
    heard: list[tuple] = []
    with listening(lambda *a: heard.append(a)):
        stage("reading x.csv")
        assert list(progress_bar([10, 20, 30], desc="subsets")) == [10, 20, 30]
        bar = progress_bar(total=2, desc="protect")
        assert isinstance(bar, ListenedBar)
        bar.update(1)
        bar.update(1)
        bar.close()
    assert heard == [("reading x.csv", None, None), ("subsets", 0, 3), ("subsets", 1, 3), ("subsets", 2, 3),
                     ("subsets", 3, 3), ("protect", 0, 2), ("protect", 1, 2), ("protect", 2, 2)]
    assert capsys.readouterr().err == ""
    stage("after the block")  # no listener any more
    assert len(heard) == 8


def test_another_thread_is_not_heard() -> None:
    heard: list[tuple] = []
    with listening(lambda *a: heard.append(a)):
        t = threading.Thread(target=stage, args=("elsewhere",))
        t.start()
        t.join()
    assert heard == []
