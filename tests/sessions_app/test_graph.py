"""The session graph through its service functions: tree, fork, worklines, spin-off, prompts."""

from __future__ import annotations

import pytest

from sessions_app.engine.graph import tree as graph
from sessions_app.engine.services import spin_off_decide, spin_off_propose
from sessions_app.errors import ApplicationError
from sessions_app.models import AskMessage, SessionEvent, Workline
from tests import factories
from tests.sessions_app.graph_support import crowded_session, grow

pytestmark = pytest.mark.django_db

CARD, ANSWER = AskMessage.Kind.QUESTION_CARD, AskMessage.Kind.ANSWER


def say(session, text, *, role=AskMessage.Role.CLIENT, kind=ANSWER):
    return graph.message_append(session=session, role=role, kind=kind, text=text)


def card(session, text):
    return say(session, text, role=AskMessage.Role.NARRATOR, kind=CARD)


def texts(session):
    session.refresh_from_db()
    return [m.text for m in graph.workline_path(session.active_workline)]


@pytest.fixture
def session():
    return factories.ActiveSessionFactory()


def test_messages_form_a_chain_under_the_active_head(session):
    first = card(session, "Do you avoid conflicts?")
    second = say(session, "Sometimes")
    assert first.parent_id is None
    assert second.parent_id == first.pk
    session.refresh_from_db()
    assert session.active_workline.name == "main"
    assert session.active_workline.head_id == second.pk
    assert session.message_count == 2


def test_a_fork_answers_a_card_again_and_keeps_the_old_branch(session):
    question = card(session, "What happened at work?")
    say(session, "My boss shouted")
    card(session, "How did you feel?")
    graph.message_fork(session=session, from_message=question)
    say(session, "Nothing much, really")

    assert texts(session) == ["What happened at work?", "Nothing much, really"]
    tree = graph.session_tree(session)
    assert tree.branch_points == [question.pk]
    assert len(tree.leaves) == 2
    assert AskMessage.objects.filter(session=session).count() == 4
    assert SessionEvent.objects.filter(session=session, type="message.forked").count() == 1


def test_forking_back_to_the_first_branch_shows_its_cards_unchanged(session):
    question = card(session, "What happened at work?")
    say(session, "My boss shouted")
    old_tip = card(session, "How did you feel?")
    graph.message_fork(session=session, from_message=question)
    say(session, "Nothing much")
    graph.message_fork(session=session, from_message=old_tip)
    assert texts(session) == ["What happened at work?", "My boss shouted", "How did you feel?"]


def test_each_workline_keeps_its_head_and_the_composer_writes_under_it(session):
    say(session, "About my sister")
    main = graph.workline_ensure_main(session=session)
    sleep = graph.workline_create(session=session, name="Sleep")
    say(session, "I wake at 4am")
    graph.workline_activate(session=session, workline=main)
    say(session, "She never calls")

    assert texts(session) == ["About my sister", "She never calls"]
    graph.workline_activate(session=session, workline=sleep)
    assert texts(session) == ["I wake at 4am"]
    statuses = dict(Workline.objects.filter(session=session).values_list("name", "status"))
    assert statuses == {"main": "parked", "Sleep": "active"}


def test_an_agreed_spin_off_moves_the_range_and_leaves_a_marker(session):
    say(session, "Hello")
    a = say(session, "Work is chaos")
    b = say(session, "My boss shouted")
    say(session, "Anyway, my sister")
    proposal = spin_off_propose(
        session=session, from_message=a, to_message=b, new_workline_name="Work"
    )
    spin_off_decide(proposal=proposal, agreed=True)

    assert texts(session) == [
        "Hello",
        "Anyway, my sister",
        f"Moved to «Work» (messages {a.pk}–{b.pk})",
    ]
    work = Workline.objects.get(session=session, name="Work")
    assert [m.text for m in graph.workline_path(work)] == ["Work is chaos", "My boss shouted"]
    event = SessionEvent.objects.get(session=session, type="workline.spin_off")
    assert event.payload["agreed"] is True
    assert event.payload["range"] == [a.pk, b.pk]
    assert AskMessage.objects.filter(session=session).count() == 5  # nothing deleted


def test_a_declined_spin_off_changes_nothing(session):
    say(session, "Hello")
    a = say(session, "Work is chaos")
    proposal = spin_off_propose(
        session=session, from_message=a, to_message=a, new_workline_name="W"
    )
    before = list(AskMessage.objects.filter(session=session).values())
    spin_off_decide(proposal=proposal, agreed=False)
    assert list(AskMessage.objects.filter(session=session).values()) == before
    assert not Workline.objects.filter(session=session, name="W").exists()
    event = SessionEvent.objects.get(session=session, type="workline.spin_off")
    assert event.payload["agreed"] is False


def test_a_spin_off_into_an_existing_workline_continues_its_line(session):
    say(session, "Hello")
    graph.workline_create(session=session, name="Work")
    say(session, "Deadlines")
    main = Workline.objects.get(session=session, name="main")
    graph.workline_activate(session=session, workline=main)
    a = say(session, "Boss shouted")
    say(session, "Back to family")
    work = Workline.objects.get(session=session, name="Work")
    proposal = spin_off_propose(session=session, from_message=a, to_message=a, target_workline=work)
    spin_off_decide(proposal=proposal, agreed=True)
    work.refresh_from_db()
    assert [m.text for m in graph.workline_path(work)] == ["Deadlines", "Boss shouted"]
    assert texts(session)[:2] == ["Hello", "Back to family"]
    session.refresh_from_db()
    assert session.active_workline_id == main.pk


@pytest.mark.parametrize("problem", ["reversed", "other_session", "crosses_worklines"])
def test_invalid_ranges_are_refused_and_change_nothing(session, problem):
    a = say(session, "one")
    b = say(session, "two")
    kwargs = {"session": session, "from_message": a, "to_message": b, "new_workline_name": "X"}
    if problem == "reversed":
        kwargs.update(from_message=b, to_message=a)
    elif problem == "other_session":
        kwargs["to_message"] = factories.AskMessageFactory()
    else:
        graph.workline_create(session=session, name="Other")
        kwargs["to_message"] = say(session, "three")
    with pytest.raises(ApplicationError) as excinfo:
        spin_off_propose(**kwargs)
    assert excinfo.value.code == "E_VALIDATION"
    assert not session.spin_offs.exists()


def test_a_fork_from_another_sessions_message_is_refused(session):
    say(session, "mine")
    with pytest.raises(ApplicationError) as excinfo:
        graph.message_fork(session=session, from_message=factories.AskMessageFactory())
    assert excinfo.value.code == "E_VALIDATION"


def test_the_101st_message_is_refused_as_too_long(session):
    session.message_count = 100
    session.save(update_fields=["message_count"])
    with pytest.raises(ApplicationError) as excinfo:
        say(session, "one more")
    assert excinfo.value.code == "E_SESSION_TOO_LONG"


def test_parked_branches_cost_nothing_in_the_prompt():
    """QUALITY P2: 20 active messages + 10 parked worklines of 20 == a linear 20-message session."""
    linear = factories.ActiveSessionFactory()
    grow(linear, 20, "main")
    busy = crowded_session()

    plain, crowded = graph.materialize(linear), graph.materialize(busy)
    assert crowded.messages == plain.messages
    assert crowded.scope_summary == "10 other open worklines"
    assert plain.scope_summary == "0 other open worklines"


def test_compaction_keeps_a_long_session_under_budget_and_reuses_its_summary(session):
    calls = []

    def summarize(turns):
        calls.append(len(turns))
        return graph.extractive_summary(turns)

    budget = 600
    for i in range(100):
        grow(session, 2, f"Turn {i}: what did you notice about the evening walk and your mood?")
        result = graph.materialize(session, budget_tokens=budget, summarize=summarize)
        assert result.input_tokens <= budget
    assert result.compacted
    assert result.messages[-1]["content"].startswith("Turn 99")
    # Recomputed only when the uncompacted tail outgrew the budget, not on each of 100 turns.
    assert 1 <= len(calls) < 20


def analysis(session, *questions):
    """An Analyst output under the head, as the batch writes it."""
    payload = {"output": {"questions": list(questions)}}
    return graph.message_append(
        session=session,
        role=AskMessage.Role.ANALYST,
        kind=AskMessage.Kind.ANALYSIS,
        payload=payload,
    )


def asked_on_path(session):
    """What the Analyst asked on the path, read the slow way: every message of the path."""
    session.refresh_from_db()
    path = graph.workline_path(session.active_workline)
    return list(
        dict.fromkeys(
            q
            for m in path
            if m.kind == AskMessage.Kind.ANALYSIS
            for q in m.payload["output"]["questions"]
        )
    )


def test_questions_asked_on_a_long_path_survive_its_compaction(session, django_assert_num_queries):
    budget = 300
    for i in range(40):
        analysis(session, f"the user walks in the evening {i}", "the user sleeps badly")
        grow(session, 2, f"Turn {i}: what did you notice about the evening walk and your mood?")
        result = graph.materialize(session, budget_tokens=budget)
        assert result.asked == asked_on_path(session)
    assert result.compacted
    session.refresh_from_db()
    assert session.active_workline.compacted_questions[:2] == [
        "the user walks in the evening 0",
        "the user sleeps badly",
    ]
    # Those before the summary are the workline's: only the tail is read (the open worklines
    # are counted, the tail is walked).
    oldest = AskMessage.objects.filter(session=session, kind=AskMessage.Kind.ANALYSIS).first()
    AskMessage.objects.filter(pk=oldest.pk).update(payload={"output": {"questions": ["changed"]}})
    with django_assert_num_queries(2):
        result = graph.materialize(session, budget_tokens=budget)
    assert result.asked[:2] == ["the user walks in the evening 0", "the user sleeps badly"]
    assert "changed" not in result.asked
    assert len(result.asked) == 41


def test_a_fork_behind_the_compaction_point_reads_the_questions_of_its_own_path(session):
    analysis(session, "the user argues with the sister")
    question = card(session, "What happened with your sister?")
    say(session, "We argued")
    for i in range(30):
        analysis(session, f"the user feels guilty {i}")
        grow(session, 2, f"Turn {i}: what did you notice about the evening walk and your mood?")
        graph.materialize(session, budget_tokens=300)
    session.refresh_from_db()
    assert session.active_workline.compacted_through_id > question.pk

    graph.message_fork(session=session, from_message=question)
    say(session, "Nothing, really")
    session.refresh_from_db()
    result = graph.materialize(session, budget_tokens=300)
    assert result.asked == ["the user argues with the sister"]
