"""Token login and logout (SPEC §9). Tokens are knox's: stored hashed, expiring."""

from __future__ import annotations

from django.contrib.auth import authenticate, logout
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from sessions_app import services
from sessions_app.api.base import ApiView, LoginThrottle, errors
from sessions_app.api.serializers import LoginInput, LoginOutput, credential_impossible
from sessions_app.edge.hashing import password_check
from sessions_app.edge.lockout import lockout_response
from sessions_app.errors import ApplicationError, ErrorCode
from sessions_app.roles import Role, role_of


class LoginApi(ApiView):
    authentication_classes = []  # a stale token header must not stop a fresh login
    permission_classes = [AllowAny]
    throttle_classes = [LoginThrottle]
    # Storing the response would store the token in clear text, defeating knox's hashing.
    idempotency_exempt = "the response is a secret; a retried login just mints another token"

    @extend_schema(
        operation_id="auth_token",
        request=LoginInput,
        responses={
            200: LoginOutput,
            **errors(
                ErrorCode.VALIDATION,
                (
                    ErrorCode.UNAUTHENTICATED,
                    "also a username or password no account can have: one holding a NUL "
                    "character or a lone surrogate",
                ),
                ErrorCode.THROTTLED,
                (ErrorCode.LOCKED_OUT, "as on /login/"),
            ),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = LoginInput(data=request.data)
        data.is_valid(raise_exception=True)
        if any(credential_impossible(value) for value in data.validated_data.values()):
            # Never sent on to the database (PostgreSQL refuses NUL) nor to the hasher.
            raise ApplicationError(ErrorCode.UNAUTHENTICATED, "Invalid username or password.")
        # The staff pages' lockout policy (django-axes) applies here too: its backend refuses a
        # locked account or address before the password is checked.
        with password_check():
            user = authenticate(request._request, **data.validated_data)
        if user is None and getattr(request._request, "axes_locked_out", False):
            return lockout_response(request._request)
        if user is None:
            raise ApplicationError(ErrorCode.UNAUTHENTICATED, "Invalid username or password.")
        if role_of(user) is Role.CLIENT:
            # A client's first sign-in makes its profile, in the language its app asks for.
            services.profile_ensure(
                user=user, accept_language=request.headers.get("Accept-Language", "")
            )
        # Expired tokens (and the oldest over TOKENS_PER_USER) go here, not on every request.
        instance, token = services.token_issue(user=user)
        return Response(LoginOutput({"token": token, "expiry": instance.expiry}).data)


class LogoutApi(ApiView):
    idempotency_exempt = "revoking twice is harmless: the retry just gets 401"

    @extend_schema(operation_id="auth_logout", request=None, responses={204: None, **errors()})
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, AuthToken):
            services.token_revoke(token=request.auth)
        else:
            logout(request._request)
        return Response(status=204)
