"""frame_corpus.py - frames from real native games, for checking them against the DecisionFrame schema.

Every frame here is what a tool call returned on a live native game (the
`agent` fixture's registry): successful calls of every tool, legs, every
decision kind (wizard-mode fixtures reach the position prompt and a death),
refusals of every family (stale view, bad arguments, wrong decision ID,
bad value, unknown session, a closed game, an ended one), and the frames of
a quit and of a death up to the ended game. Nothing is built by hand.
"""

from __future__ import annotations

from typing import Any

from nethack_webmcp.projection import frame as frames
from nethack_webmcp.session import Session
from nethack_webmcp.tools import BY_NAME, ToolContext
from nethack_webmcp.tools.help import GENERATED_TOPICS, TOPICS
from support.client import Client, bound

Frame = dict[str, Any]


class Corpus:
    """Calls tools and keeps every frame they return, labelled by the call."""

    def __init__(self, agent: Client) -> None:
        self.agent = agent
        self.frames: list[tuple[str, Frame]] = []

    async def call(self, tool: str, **arguments: Any) -> Frame:
        frame = await self.agent.call(tool, **arguments)
        label = f"{tool} {arguments.get('action') or arguments.get('mode') or arguments.get('query') or ''}".strip()
        self.frames.append((label, frame))
        return frame

    def keep(self, label: str, frame: Frame) -> Frame:
        self.frames.append((label, frame))
        return frame

    async def settle(self, frame: Frame) -> Frame:
        """Leave every standing question: cancel it, or decline when it cannot be cancelled."""
        for _ in range(20):
            decision = frame.get("decision")
            if decision is None:
                return frame
            if "cancel" in decision:
                frame = await self.call("respond", **decision["cancel"]["arguments"])
            else:
                frame = await self.call("respond", **decision["reply"]["arguments"], value=False)
        raise AssertionError(f"a question keeps standing: {frame['decision']}")

    async def answer(self, frame: Frame, value: Any) -> Frame:
        return await self.call("respond", **frame["decision"]["reply"]["arguments"], value=value)


async def free_calls(corpus: Corpus, frame: Frame) -> None:
    """Every free query on the current view."""
    session_id = frame["basis"]["sessionId"]
    await corpus.call("observe", sessionId=session_id)
    await corpus.call("inventory", sessionId=session_id)
    await corpus.call("equipment", sessionId=session_id)
    await corpus.call("interact", sessionId=session_id)
    await corpus.call("interact", sessionId=session_id, target={"direction": "east"})
    await corpus.call("use", sessionId=session_id)
    items = frame["scene"]["inventory"] or []
    if items:
        await corpus.call("use", sessionId=session_id, itemId=items[0]["id"])
    await corpus.call("plan", sessionId=session_id, query="navigation")
    await corpus.call("plan", sessionId=session_id, query="neighborhood")
    await corpus.call("plan", sessionId=session_id, query="wayOn")
    hero = frame["scene"]["self"]["position"]
    await corpus.call("plan", sessionId=session_id, query="route", to={"x": hero["x"] + 1, "y": hero["y"]})
    await corpus.call("lookup", sessionId=session_id, name="newt")
    await corpus.call("lookup", sessionId=session_id, name="no such thing at all")
    await corpus.call("lookup", sessionId=session_id, position=hero)


async def refusals(corpus: Corpus, frame: Frame) -> None:
    """Typed errors: each sends nothing."""
    args = bound(frame)
    session_id = args["sessionId"]
    await corpus.call("interact", **args, action="search", turns=2000)  # invalidArguments (bounds)
    await corpus.call("interact", **args, action="bogus")  # invalidArguments (enum)
    await corpus.call("interact", sessionId=session_id, viewId="v0-stale", action="search")  # staleView
    await corpus.call("interact", **args, action="attack", target={"symbol": "Q", "scope": "adjacent"})  # notFound
    await corpus.call("respond", action="cancel", sessionId=session_id, decisionId="decision-999")  # noDecision
    await corpus.call("observe", sessionId="no-such-game")  # unknownSession
    await corpus.call("help", topic="nonsense")  # invalidArguments, sessionless


async def explore(corpus: Corpus, frame: Frame, legs: int) -> Frame:
    for _ in range(legs):
        frame = await corpus.call("travel", **bound(frame), mode="explore", maxActions=40)
        frame = await corpus.settle(frame)
        if frame["control"]["gate"] != "ready":
            break
    return frame


async def decisions(corpus: Corpus, frame: Frame) -> Frame:
    """Item, direction, text and confirmation questions, with wrong answers first."""
    frame = await corpus.call("use", **bound(frame), action="eat")  # an item question (or a refusal)
    if frame.get("decision"):
        decision = frame["decision"]
        await corpus.call(
            "respond",
            action="answer",
            sessionId=decision["reply"]["arguments"]["sessionId"],
            decisionId="decision-0",
            value=True,
        )  # decisionMismatch
        await corpus.answer(frame, 12)  # invalidValue
        await corpus.call("interact", **bound(frame), action="search")  # decisionStanding
        frame = await corpus.settle(frame)
    frame = await corpus.call("interact", **bound(frame), action="kick")  # a direction question
    if frame.get("decision") and frame["decision"]["kind"] == "direction":
        frame = await corpus.answer(frame, "self")
    frame = await corpus.settle(frame)
    frame = await corpus.call("use", **bound(frame), action="engrave")  # item (fingers), then text
    if frame.get("decision") and frame["decision"]["kind"] == "item" and frame["decision"].get("hands"):
        frame = await corpus.answer(frame, "hands")
        for _ in range(4):
            decision = frame.get("decision")
            if decision is None:
                break
            frame = await corpus.answer(frame, "Elbereth" if decision["kind"] == "text" else False)
    return await corpus.settle(frame)


async def quit_game(corpus: Corpus, frame: Frame) -> Frame:
    """Quit through NetHack's own questions, to the ended game and its refusals."""
    frame = await corpus.call("session", **bound(frame), action="quit")
    while frame.get("decision") is not None:
        decision = frame["decision"]
        if decision["kind"] == "confirmation":
            frame = await corpus.answer(frame, decision["prompt"] == "Really quit?")
        else:
            frame = await corpus.call("respond", **decision["cancel"]["arguments"])
    return await ended(corpus, frame)


async def ended(corpus: Corpus, frame: Frame) -> Frame:
    assert frame["control"]["gate"] == "ended", frame["control"]
    session_id = frame["basis"]["sessionId"]
    await corpus.call("interact", **bound(frame), action="search")  # gameEnded
    await corpus.call("observe", sessionId=session_id)
    await corpus.call("session", action="list")  # the ended game among the listed ones
    await corpus.call("session", action="close", sessionId=session_id)
    await corpus.call("observe", sessionId=session_id)  # sessionClosed
    return await corpus.call("session", action="resume", sessionId=session_id)


async def ordinary_game(corpus: Corpus, seed: int, role: str) -> None:
    frame = await corpus.call("session", action="create", seed=seed, role=role)
    await free_calls(corpus, frame)
    await refusals(corpus, frame)
    frame = await corpus.call("travel", **bound(frame), mode="step", target={"direction": "south"})
    frame = await corpus.settle(frame)
    search = {**bound(frame), "action": "search", "turns": 3, "requestId": f"search-{seed}"}
    frame = await corpus.call("interact", **search)
    await corpus.call("interact", **search)  # an exact retry: the original receipt
    await corpus.call("observe", sessionId=frame["basis"]["sessionId"], operationId=f"search-{seed}")
    frame = await corpus.settle(frame)
    frame = await explore(corpus, frame, 3)
    if frame["control"]["gate"] == "ready":
        frame = await corpus.call("travel", **bound(frame), mode="run", direction="west")
        frame = await corpus.settle(frame)
    frame = await decisions(corpus, frame)
    if role == "wizard":
        frame = await corpus.call("use", **bound(frame), action="cast")  # the spell menu: a choice
        frame = await corpus.settle(frame)
    frame = await explore(corpus, frame, 2)
    await free_calls(corpus, frame)
    if frame["control"]["gate"] == "ready":
        await quit_game(corpus, frame)


async def past_the_deadline(corpus: Corpus, seed: int) -> None:
    """A leg called with no time to wait answers `running` (the operation goes on),
    then observe reports the operation once it is done."""
    frame = await corpus.call("session", action="create", seed=seed)
    impatient = ToolContext(corpus.agent.games, operation_deadline=0)
    running = await BY_NAME["travel"].call(impatient, {**bound(frame), "mode": "explore", "maxActions": 40})
    corpus.keep("travel explore (deadline passed)", running)
    assert running["outcome"]["status"] == "running", running["outcome"]
    session_id = frame["basis"]["sessionId"]
    await corpus.call("interact", **bound(frame), action="search")  # busy, or staleView once done
    await corpus.agent.games.get(session_id).running.task  # type: ignore[union-attr]
    await corpus.call("observe", sessionId=session_id, operationId=running["outcome"]["operationId"])
    await corpus.call("session", action="close", sessionId=session_id)


async def low(corpus: Corpus, session: Session, method: str, **params: Any) -> Frame:
    """A low fixture step (debug.wizard is never exposed through the tools), then its frame."""
    result = await session.step(method, params, request_id=f"fixture-{session.revision}")
    assert result.submission == "accepted", result.error
    return corpus.keep(method, frames.build(session))


async def wizard_death(corpus: Corpus) -> None:
    """A wizard-mode fixture: the position prompt, then death by soldier ants
    through the "Die?" question and the disclosure questions, to the end."""
    session = await corpus.agent.fixture_game(seed=7, wizard=True, role="valkyrie")
    frame = await low(corpus, session, "debug.wizard", command="teleport")
    assert frame["decision"]["kind"] == "position"
    await corpus.answer(frame, "west")  # moves the cursor: the question stays
    frame = await corpus.settle(corpus.frames[-1][1])
    for _ in range(3):
        frame = await low(corpus, session, "debug.wizard", command="createMonster")
        frame = await corpus.answer(frame, "soldier ant")
    for _ in range(80):
        decision = frame.get("decision")
        if frame["control"]["gate"] == "ended":
            break
        if decision is None:
            frame = await corpus.call("interact", **bound(frame), action="search", turns=5)
        elif decision["prompt"] == "Die?" or decision["kind"] == "confirmation":
            frame = await corpus.answer(frame, decision["prompt"] == "Die?")
        elif "cancel" in decision:
            frame = await corpus.call("respond", **decision["cancel"]["arguments"])
        else:
            frame = await corpus.answer(frame, False)
    assert frame["scene"]["end"]["how"] == "died", frame["scene"].get("end")
    await ended(corpus, frame)


async def sessionless(corpus: Corpus) -> None:
    for topic in (*TOPICS, *GENERATED_TOPICS):
        await corpus.call("help", topic=topic)
    await corpus.call("help")
    await corpus.call("session", action="create", role="valkyrie", alignment="chaotic", race="dwarf")
    sealed = await corpus.call("session", action="create")  # no seed: sealed
    await corpus.call("session", action="close", sessionId=sealed["basis"]["sessionId"])


async def collect(agent: Client, seeds: tuple[tuple[int, str], ...]) -> list[tuple[str, Frame]]:
    corpus = Corpus(agent)
    await sessionless(corpus)
    for seed, role in seeds:
        await ordinary_game(corpus, seed, role)
    await past_the_deadline(corpus, seeds[0][0])
    await wizard_death(corpus)
    return corpus.frames
