"""The client's own profile over REST: its language
(docs/decisions/0002-three-languages-through-gettext.md)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app import services
from sessions_app.access import forbidden
from sessions_app.api.base import ApiView, WriteThrottle, errors, validated
from sessions_app.api.serializers import ProfileOutput, ProfilePatchInput
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
