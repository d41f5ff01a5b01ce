"""The staff pages in three languages: Accept-Language or the switcher's choice
decides; headings, counts with their plural forms and `<html lang>` follow it."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from sessions_app import texts
from tests import factories
from tests.routes import object_url

pytestmark = pytest.mark.django_db

page = object_url("pages:session")
HOME = reverse("pages:home")


def signed_in(user, **headers) -> Client:
    client = Client(**headers)
    client.force_login(user)
    return client


def html_lang(html: str) -> str:
    return re.search(r'<html lang="([^"]+)"', html).group(1)


@pytest.mark.parametrize(
    ("header", "lang", "heading"),
    [
        ("en-US,en;q=0.9", "en", "Crisis queue"),
        ("ru-RU,ru;q=0.9,en;q=0.8", "ru", "Очередь кризисов"),
        ("zh-CN,zh;q=0.9", "zh-hans", "危机队列"),
        ("zh", "zh-hans", "危机队列"),
        ("de-DE", "en", "Crisis queue"),
    ],
)
def test_home_follows_accept_language(bob, header, lang, heading):
    html = signed_in(bob, HTTP_ACCEPT_LANGUAGE=header).get(HOME).content.decode()
    assert html_lang(html) == lang
    assert heading in html


def test_the_switcher_choice_wins_over_accept_language(bob):
    client = signed_in(bob, HTTP_ACCEPT_LANGUAGE="ru")
    response = client.post(reverse("set_language"), {"language": "zh-hans", "next": HOME})
    assert response.status_code == 302
    assert response.url == HOME
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    html = client.get(HOME).content.decode()
    assert html_lang(html) == "zh-hans"
    assert "危机队列" in html
    assert 'value="zh-hans" lang="zh-hans" selected' in html


def test_every_staff_page_offers_the_switcher_with_three_languages(bob, client):
    for html in (signed_in(bob).get(HOME).content.decode(), client.get("/login/").content.decode()):
        form = html[html.index('class="language-form"') :]
        form = form[: form.index("</form>")]
        assert f'action="{reverse("set_language")}"' in form
        assert '<label for="language-select">' in form
        for code, name in (("en", "English"), ("ru", "Русский"), ("zh-hans", "简体中文")):
            assert f'value="{code}" lang="{code}"' in form
            assert name in form


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", {1: "1 answer", 2: "2 answers", 5: "5 answers", 21: "21 answers"}),
        ("ru", {1: "1 ответ", 2: "2 ответа", 5: "5 ответов", 11: "11 ответов", 21: "21 ответ"}),
        ("zh-hans", {1: "1 个回答", 5: "5 个回答"}),
    ],
)
def test_answer_counts_agree_with_their_number_in_each_language(bob, alice, language, expected):
    client = signed_in(bob, HTTP_ACCEPT_LANGUAGE=language)
    for count, text in expected.items():
        session = factories.ActiveSessionFactory(user=alice, turn_count=count)
        html = client.get(page(session)).content.decode()
        assert f'<span class="pill">{text}</span>' in html
        session.delete()


def test_the_session_page_and_the_sandbox_render_in_russian_and_chinese(bob, alice):
    session = factories.ActiveSessionFactory(user=alice)
    ru = signed_in(bob, HTTP_ACCEPT_LANGUAGE="ru")
    zh = signed_in(bob, HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert "Разговор" in ru.get(page(session)).content.decode()
    assert "对话" in zh.get(page(session)).content.decode()
    sandbox = reverse("pages:sandbox")
    ru_sandbox = ru.get(sandbox).content.decode()
    assert "Начать тестовую сессию" in ru_sandbox
    assert "Язык клиента" in ru_sandbox
    zh_sandbox = zh.get(sandbox).content.decode()
    assert "开始测试会话" in zh_sandbox
    # The page's language is the test client's first choice.
    assert '<option value="zh" selected>' in zh_sandbox


def test_the_error_pages_speak_the_readers_language(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 404
    assert "Не найдено" in response.content.decode()


@pytest.mark.parametrize(
    ("header", "texts"),
    [
        (
            "ru",
            ("Гипотезы", "Сессии с риском (L3/L4) за последние 30 дней", "0 сессий уровня L3/L4"),
        ),
        ("zh-CN", ("假设", "风险会话（L3/L4），最近 30 天", "0 个 L3/L4 会话")),
    ],
)
def test_the_insights_page_and_its_charts_speak_the_readers_language(bob, header, texts):
    html = signed_in(bob, HTTP_ACCEPT_LANGUAGE=header).get(reverse("insights:home")).content
    for text in texts:
        assert text in html.decode()


@pytest.mark.parametrize(
    ("header", "label"), [("en", "Support session"), ("ru", "Сессия поддержки"), ("zh-CN", None)]
)
def test_a_crisis_sessions_neutral_label_is_in_the_readers_language(bob, alice, header, label):
    factories.CrisisSessionFactory(user=alice, status="active", session_title="x y z")
    html = signed_in(bob, HTTP_ACCEPT_LANGUAGE=header).get(HOME).content.decode()
    expected = label or texts.text("title_crisis_intervention", "zh")
    assert expected in html
    assert "x y z" not in html
