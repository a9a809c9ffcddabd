"""Whether a loop blocks on a person each time (greenlint.rules.syntax.waits_for_user): `cv2.waitKey`'s delay."""

from __future__ import annotations

import ast

import pytest

from greenlint.rules.syntax import waits_for_user


@pytest.mark.parametrize(
    ("wait", "waits"),
    [
        ("cv2.waitKey()", True),  # no delay: until a key is pressed
        ("cv2.waitKey(0)", True),
        ("cv2.waitKey(delay=0)", True),
        ("cv2.waitKey(1)", False),
        ("cv2.waitKey(delay=25)", False),
        ("cv2.waitKey(*delays)", False),  # a delay given, not known to be 0
        ("cv2.waitKey(**options)", False),  # maybe a delay, not known to be 0
    ],
)
def test_wait_key(wait: str, waits: bool) -> None:
    loop = ast.parse(f"for frame in frames:\n    show(frame)\n    {wait}\n").body[0]
    assert waits_for_user(loop) is waits
