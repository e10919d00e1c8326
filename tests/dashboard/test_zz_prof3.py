import gc, time
from dashboard import kept, replay_frames
from tests.dashboard.conftest import Demo

def test_prof(demo: Demo) -> None:
    for gid in demo.others["arnak"][:2]:
        records = demo.queries.replays.records(gid)
        seats = len(records[0]["body"]["names"])
        n = replay_frames.chunks(len(records))
        def run():
            kept.clear()
            states = {(c, e): replay_frames.part_states(records, c, e) for c in range(n) for e in (False, True)}
            for p in ["referee", *map(str, range(seats))]:
                seat = None if p == "referee" else int(p)
                for c in range(n):
                    replay_frames.document(gid, records, p, seat, {}, c, False, False, frames_at=states[(c, False)])
            for c in range(n):
                replay_frames.document(gid, records, "referee", None, {}, c, False, True, frames_at=states[(c, True)])
        for rnd in range(3):
            for label in ("gc on", "gc off"):
                if label == "gc off": gc.disable()
                c0 = gc.get_stats()[2]["collections"]
                t = time.process_time(); run(); d = time.process_time() - t
                gc.enable()
                print(gid[:6], label, round(d, 3), "gen2 collections", gc.get_stats()[2]["collections"] - c0, "gen0/1 thresholds", gc.get_threshold(), "objects", len(gc.get_objects()))
