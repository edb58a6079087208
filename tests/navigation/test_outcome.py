"""StepOutcome built from real driver responses: door attempts, new creatures, vitals."""

from __future__ import annotations

from nethack_webmcp.navigation import (
    HeroState,
    door_attempted,
    new_creatures_perceived,
    step_outcome,
)
from recorded import load_fixture


def outcomes(name):
    pairs = load_fixture(name)
    previous = pairs[0]["response"]["observation"]
    for pair in pairs[1:]:
        response = pair["response"]
        if pair["request"]["method"] == "session.observe":
            continue
        yield pair, step_outcome(previous, response)
        previous = response["observation"]


def test_real_door_bump_is_a_door_attempt_that_did_not_move():
    results = list(outcomes("seed42_door"))
    *walk, (last_pair, bump) = results
    assert [o.position_changed for _, o in walk] == [True] * 10
    assert not any(o.door_attempt or o.decision or o.ended or o.interrupted for _, o in walk)
    assert last_pair["response"]["events"] == [
        {"type": "doorWitness", "levelId": "d0-l1", "x": 48, "y": 7, "fact": "unlocked", "turn": 11},
        {"type": "heard", "text": "The door opens."},
    ]
    assert bump.door_attempt and not bump.position_changed
    assert bump.level_id == "d0-l1" and bump.hp == 16 and bump.hunger == "not_hungry"
    assert tuple(bump.conditions) == ()


def test_real_rat_appearing_is_a_new_creature_and_the_dog_is_not():
    flagged = [(pair, o) for pair, o in outcomes("seed1_boulder") if o.new_creatures]
    assert flagged, "the sewer rat's arrival must be noticed"
    first_pair, _ = flagged[0]
    appearances = {e.get("appearance") for e in first_pair["response"]["observation"]["entities"]}
    assert appearances - {"kitten", "little dog", "pony"}


def test_new_creature_census_counts_appearances():
    jackal = {"kind": "creature", "appearance": "jackal", "mark": "d"}
    dog = {"kind": "ally", "appearance": "little dog", "mark": "d"}
    assert new_creatures_perceived([], [jackal])
    assert not new_creatures_perceived([jackal], [dict(jackal, x=5)])  # it moved
    assert new_creatures_perceived([jackal], [jackal, jackal])  # a second one
    assert not new_creatures_perceived([], [dog])
    assert not new_creatures_perceived([jackal], [])
    unseen = {"kind": "unseen", "mark": "I"}
    assert new_creatures_perceived([], [unseen])


def test_door_phrases():
    assert door_attempted([{"type": "heard", "text": "This door is locked."}])
    assert door_attempted([{"type": "heard", "text": "The door resists!"}])
    assert not door_attempted([{"type": "heard", "text": "You see a door open."}])
    assert not door_attempted([{"type": "passage", "lines": ["The door opens."]}])


def test_hero_state_reads_vitals():
    observation = load_fixture("seed42_start")[0]["response"]["observation"]
    assert HeroState.from_observation(observation) == HeroState("d0-l1", 16, (), "not_hungry")


def test_a_creature_back_in_view_within_its_sighting_is_not_new():
    from nethack_webmcp.navigation.level import WorldTracker
    from nethack_webmcp.navigation.outcome import SIGHTING_GAP
    from synthetic import creature

    tracker = WorldTracker()
    bat = creature(5, 5, appearance="bat")

    def seen(entities, turn):
        return {"levelId": "d0-l1", "position": {"x": 1, "y": 1}, "turn": turn, "entities": entities}

    tracker.apply(seen([bat], 10))
    tracker.apply(seen([], 12))  # the bat flits out of view
    recent = tracker.sightings.recent("d0-l1", 12)
    assert not new_creatures_perceived([], [bat], recent)  # ...and back: the same sighting
    assert new_creatures_perceived([], [bat, creature(6, 5, appearance="bat")], recent)  # a second bat is new
    later = 12 + SIGHTING_GAP + 1
    assert new_creatures_perceived([], [bat], tracker.sightings.recent("d0-l1", later))  # a new sighting
    assert new_creatures_perceived([], [bat], tracker.sightings.recent("d0-l2", 12))  # another level
