"""The guess guard of the PIN and the join codes (issue 17, F2): counted before the check,
per source (an IPv6 /64 is one source), and a hall budget that slows guessers without locking
out anyone who was not guessing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.web.guesses import GuessGuard, source_of


def test_guess_guard_counts_a_try_before_it_is_checked():
    """Sixty requests at the same moment from one address: five may be checked, not sixty."""
    guard = GuessGuard(tries=5, seconds=60)
    answers = [guard.try_now("10.0.0.7", 10.0) for _ in range(60)]
    assert answers.count(0) == 5 and set(answers[5:]) == {60}


def test_guess_guard_a_right_try_is_taken_back_but_does_not_clear_the_others():
    guard = GuessGuard(tries=3, seconds=60)
    assert guard.try_now("a", 1.0) == 0
    assert guard.try_now("a", 2.0) == 0
    guard.right("a", 2.0)
    assert guard.try_now("a", 3.0) == 0
    assert guard.try_now("a", 4.0) == 0
    assert guard.try_now("a", 5.0) == 56


def test_guess_guard_an_ipv6_slash_64_is_one_source():
    guard = GuessGuard(tries=2, seconds=60)
    assert guard.try_now("2001:db8:1:2::1", 0.0) == 0
    assert guard.try_now("2001:db8:1:2::ffff", 0.0) == 0
    assert guard.try_now("2001:db8:1:2:abcd::9", 0.0) == 60
    assert guard.try_now("2001:db8:1:3::1", 0.0) == 0
    assert source_of("::ffff:10.0.0.5") == "10.0.0.5" == source_of("10.0.0.5")
    assert source_of("?") == "?"


def test_guess_guard_many_addresses_get_the_grace_then_wait():
    """A guesser with a whole /24: once the hall budget is spent, two tries per address an
    hour (the grace), so 250 addresses are worth 500 tries, not 250 x 5 a minute."""
    guard = GuessGuard(tries=5, seconds=60, hall_tries=20, grace=2, memory=3600)
    checked = 0
    for minute in range(60):
        for n in range(250):
            checked += guard.try_now(f"10.9.0.{n}", minute * 60.0 + n * 0.001) == 0
    assert checked <= 250 * 2 + 60 * 20


@given(st.lists(st.tuples(st.integers(0, 5), st.floats(0, 600), st.booleans()), max_size=200))
def test_guess_guard_no_source_beyond_its_tries_in_any_window(events):
    """The invariant, whatever the order of tries and right answers: no source gets more than
    `tries` wrong tries checked in any window of `seconds`."""
    guard = GuessGuard(tries=3, seconds=60, hall_tries=5, grace=1)
    wrong: dict[str, list[float]] = {}
    for who, at, right in sorted(events, key=lambda e: e[1]):
        address = f"10.0.0.{who}"
        if guard.try_now(address, at) == 0:
            if right:
                guard.right(address, at)
            else:
                wrong.setdefault(address, []).append(at)
    for times in wrong.values():
        for start in times:
            assert sum(start <= t < start + 60 for t in times) <= 3
