"""StageClock: the time of each stage of a scan, from its progress reports."""

from ndd_desktop.pipeline.progress import Progress, StageClock


def report(stage: str, done: int) -> Progress:
    return Progress(stage, done, None, "", 0.0, None)


def test_each_stage_runs_from_its_first_report_to_the_next_stages_first():
    times = iter([0.0, 0.5, 2.0, 2.5, 3.5, 4.0, 4.25])
    seen = []
    clock = StageClock(seen.append, clock=lambda: next(times))
    for stage, done in [("walk", 0), ("walk", 10), ("extract", 0), ("extract", 7), ("verify", 3), ("verify", 12)]:
        clock(report(stage, done))
    stages = clock.finish()
    assert stages == [("walk", 2.0, 10), ("extract", 1.5, 7), ("verify", 0.75, 12)]
    assert [p.stage for p in seen] == ["walk", "walk", "extract", "extract", "verify", "verify"]  # forwarded


def test_no_report_no_stage():
    assert StageClock(clock=lambda: 1.0).finish() == []
