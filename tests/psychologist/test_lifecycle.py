"""ADR decision 4: proposed → accepted | dismissed, only from proposed, every transition its
event; an accepted client hypothesis joins the anamnesis. QUALITY R3 on PostgreSQL."""

from __future__ import annotations

from functools import partial

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from psychologist.models import Hypothesis
from psychologist.services import hypothesis_accept, hypothesis_dismiss
from sessions_app.errors import ApplicationError
from sessions_app.models import UserProfile
from tests import factories
from tests.races import race

pytestmark = pytest.mark.django_db


def transitions(hypothesis: Hypothesis) -> list[str]:
    events = hypothesis.session.events.filter(type__startswith="psychologist.hypothesis_")
    return list(events.order_by("seq").values_list("type", flat=True))


@pytest.fixture
def proposed(alice) -> Hypothesis:
    return factories.HypothesisFactory(
        analysis__session__user=alice, statement="Avoids conflict at work.", confidence=72
    )


def test_accepting_a_client_hypothesis_records_who_and_adds_it_to_the_profile(proposed, bob):
    hypothesis = hypothesis_accept(hypothesis=proposed, by=bob)

    hypothesis.refresh_from_db()
    assert (hypothesis.status, hypothesis.decided_by) == ("accepted", bob)
    assert hypothesis.decided_at is not None
    assert transitions(hypothesis) == [
        "psychologist.hypothesis_accepted",
        "psychologist.hypothesis_accepted_for_anamnesis",
    ]
    accepted = hypothesis.session.events.get(type="psychologist.hypothesis_accepted")
    assert (accepted.actor, accepted.actor_user, accepted.payload["hypothesis"]) == (
        "counselor",
        bob,
        hypothesis.pk,
    )
    [entry] = UserProfile.objects.get(user=hypothesis.session.user).accepted_hypotheses
    assert entry["hypothesis"] == hypothesis.pk
    assert (entry["statement"], entry["confidence"]) == ("Avoids conflict at work.", 72)
    assert entry["session_id"] == str(hypothesis.session_id)


def test_accepting_a_hypothesis_about_an_agent_leaves_the_clients_profile_alone(alice, bob):
    hypothesis = factories.HypothesisFactory(analysis__session__user=alice, target="narrator")

    hypothesis_accept(hypothesis=hypothesis, by=bob)

    assert transitions(hypothesis) == ["psychologist.hypothesis_accepted"]
    assert UserProfile.objects.get(user=alice).accepted_hypotheses == []


def test_dismissing_records_its_event_and_keeps_the_hypothesis(proposed, olga):
    hypothesis_dismiss(hypothesis=proposed, by=olga)

    proposed.refresh_from_db()
    assert (proposed.status, proposed.decided_by) == ("dismissed", olga)
    assert transitions(proposed) == ["psychologist.hypothesis_dismissed"]


@pytest.mark.parametrize("first", [hypothesis_accept, hypothesis_dismiss])
@pytest.mark.parametrize("second", [hypothesis_accept, hypothesis_dismiss])
def test_a_decided_hypothesis_cannot_be_decided_again(proposed, bob, olga, first, second):
    first(hypothesis=proposed, by=bob)
    events = transitions(proposed)

    with pytest.raises(ApplicationError) as refused:
        second(hypothesis=Hypothesis.objects.get(pk=proposed.pk), by=olga)

    assert (refused.value.code, refused.value.status) == ("E_HYPOTHESIS_DECIDED", 409)
    assert transitions(proposed) == events
    proposed.refresh_from_db()
    assert proposed.decided_by == bob


def test_a_stale_copy_cannot_decide_what_another_request_already_decided(proposed, bob, olga):
    stale = Hypothesis.objects.get(pk=proposed.pk)  # read while still proposed
    hypothesis_dismiss(hypothesis=proposed, by=olga)

    with pytest.raises(ApplicationError):
        hypothesis_accept(hypothesis=stale, by=bob)

    assert UserProfile.objects.get(user=proposed.session.user).accepted_hypotheses == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_accepts_and_dismisses_make_exactly_one_transition_and_one_event(
    alice, bob
):
    hypothesis = factories.HypothesisFactory(analysis__session__user=alice)
    verbs = ["accept", "dismiss"] * 10

    def decide(verb: str) -> tuple[str, int, str]:
        client = APIClient()
        client.force_authenticate(bob)
        url = reverse(f"psychologist:hypothesis-{verb}", kwargs={"hypothesis_id": hypothesis.pk})
        response = client.post(url, format="json")
        return verb, response.status_code, response.json().get("code", "")

    results, _ = race([partial(decide, verb) for verb in verbs])

    winners = [verb for verb, status, _ in results if status == 200]
    assert len(winners) == 1
    assert sorted((s, c) for _, s, c in results if s != 200) == [(409, "E_HYPOTHESIS_DECIDED")] * 19
    hypothesis.refresh_from_db()
    assert hypothesis.status == {"accept": "accepted", "dismiss": "dismissed"}[winners[0]]
    decisions = [
        t
        for t in transitions(hypothesis)
        if t in ("psychologist.hypothesis_accepted", "psychologist.hypothesis_dismissed")
    ]
    assert decisions == [f"psychologist.hypothesis_{hypothesis.status}"]
    profile = UserProfile.objects.get(user=alice)
    assert len(profile.accepted_hypotheses) == (1 if hypothesis.status == "accepted" else 0)
