"""The client's own profile over REST: its language
(docs/decisions/0002-three-languages-through-gettext.md) and its consent to the vault export (the
Markdown files of `jobs/markdown_export.py`)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app import services, texts
from sessions_app.access import forbidden
from sessions_app.api.base import ApiView, WriteThrottle, errors, validated
from sessions_app.api.serializers import ProfileOutput, ProfilePatchInput, VaultConsentOutput
from sessions_app.errors import ErrorCode
from sessions_app.models import UserProfile
from sessions_app.roles import Role, role_of


def _own_profile(request: Request) -> UserProfile:
    if role_of(request.user) is not Role.CLIENT:
        raise forbidden("Only clients have a profile here.")
    return services.profile_ensure(
        user=request.user, accept_language=request.headers.get("Accept-Language", "")
    )


class ProfileApi(ApiView):
    throttle_classes = [WriteThrottle]

    @extend_schema(
        operation_id="profile_retrieve",
        responses={200: ProfileOutput, **errors((ErrorCode.FORBIDDEN, "clients only"))},
        description="The caller's own profile. A client without one gets it created, its "
        "`locale` taken from `Accept-Language` (en, ru or zh; else en).",
    )
    def get(self, request: Request) -> Response:
        return Response(ProfileOutput(_own_profile(request)).data)

    @extend_schema(
        operation_id="profile_partial_update",
        request=ProfilePatchInput,
        responses={
            200: ProfileOutput,
            **errors(ErrorCode.VALIDATION, (ErrorCode.FORBIDDEN, "clients only")),
        },
        description="Change the caller's own `locale` (en, ru or zh): the language its "
        "sessions, cards and notifications are written in. Sending the same value again "
        "changes nothing.",
    )
    def patch(self, request: Request) -> Response:
        profile = _own_profile(request)
        changes = validated(ProfilePatchInput(data=request.data))
        profile = services.profile_update(profile=profile, changes=changes)
        return Response(ProfileOutput(profile).data)


def _consent_response(profile: UserProfile) -> Response:
    given = profile.vault_export_consent and profile.vault_export_consented_at is not None
    key = "vault_consent_given" if given else "vault_consent_none"
    body = {
        "consent": given,
        "consented_at": profile.vault_export_consented_at if given else None,
        "statement": texts.text(key, profile.locale),
    }
    return Response(VaultConsentOutput(body).data)


def _consent_set(request: Request, *, consent: bool) -> Response:
    profile = services.vault_consent_set(
        profile=_own_profile(request), consent=consent, by=request.user
    )
    return _consent_response(profile)


def _consent_operation(operation_id: str, description: str, **schema: Any) -> Any:
    return extend_schema(
        operation_id=operation_id,
        responses={200: VaultConsentOutput, **errors((ErrorCode.FORBIDDEN, "clients only"))},
        description=description,
        **schema,
    )


class VaultConsentApi(ApiView):
    """The client's consent to the vault export: read it, grant it (PUT), withdraw it (DELETE)."""

    throttle_classes = [WriteThrottle]

    @_consent_operation(
        "profile_vault_consent_retrieve",
        "Whether the nightly vault export writes the caller's finished sessions and profile as "
        "Markdown files into a private folder of its own on the server, and what that means, "
        "in the caller's language.",
    )
    def get(self, request: Request) -> Response:
        return _consent_response(_own_profile(request))

    @_consent_operation(
        "profile_vault_consent_grant",
        "Grant the consent: from the next nightly run on, the caller's finished sessions and "
        "profile are exported. Granting again changes nothing (`consented_at` stays the first "
        "grant's). Recorded in the profile's history.",
        request=None,
    )
    def put(self, request: Request) -> Response:
        return _consent_set(request, consent=True)

    @_consent_operation(
        "profile_vault_consent_withdraw",
        "Withdraw the consent: nothing more is exported, and the caller's folder is deleted at "
        "the next nightly run. Withdrawing again changes nothing. Recorded in the profile's "
        "history.",
        request=None,
    )
    def delete(self, request: Request) -> Response:
        return _consent_set(request, consent=False)
