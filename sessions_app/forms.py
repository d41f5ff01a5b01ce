"""Forms of the staff's pages."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import AuthenticationForm

from sessions_app.access import pages_allowed


class StaffAuthenticationForm(AuthenticationForm):
    """Sign-in for counselors and ops. Clients and services use the API's tokens (SPEC §1).

    A client's right password gets the same answer as a wrong one: the page must not confirm
    the credentials of an account it will not let in.
    """

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        if not pages_allowed(user):
            raise self.get_invalid_login_error()
