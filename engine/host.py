"""Hosts (domains and IP addresses): representation, parsing, serializing, equivalence.

https://url.spec.whatwg.org/#hosts-(domains-and-ip-addresses)

A host's kind is its type: ``Domain`` and ``OpaqueHost`` and ``EmptyHost`` are ``str``
subclasses, ``IPv4Address`` an ``int`` subclass, ``IPv6Address`` a ``tuple`` of eight pieces.
"""

from __future__ import annotations

import re

from .failure import Failure, fail, validation_error
from .idna import domain_to_ascii
from .infra import (
    ASCII_DIGITS,
    ASCII_HEX_DIGITS,
    FORBIDDEN_DOMAIN_CODE_POINTS,
    FORBIDDEN_HOST_CODE_POINTS,
    NOT_URL_CODE_POINT_OR_PERCENT,
    PERCENT_NOT_FOLLOWED_BY_TWO_HEX_DIGITS,
    character_class,
    to_scalar_value_string,
)
from .percent_encoding import C0_CONTROL_PERCENT_ENCODE_SET, percent_decode, percent_encode_utf8

__all__ = [
    "Domain",
    "IPv4Address",
    "IPv6Address",
    "OpaqueHost",
    "EmptyHost",
    "Host",
    "FORBIDDEN_HOST_CODE_POINTS",
    "FORBIDDEN_DOMAIN_CODE_POINTS",
    "parse_host",
    "ends_in_a_number",
    "ends_in_a_number_search",
    "parse_ipv4",
    "parse_ipv4_number",
    "parse_ipv6",
    "parse_opaque_host",
    "serialize_host",
    "serialize_ipv4",
    "serialize_ipv6",
    "find_ipv6_compressed_piece_index",
    "hosts_equal",
]


class Domain(str):
    """https://url.spec.whatwg.org/#concept-domain"""

    __slots__ = ()


class OpaqueHost(str):
    """https://url.spec.whatwg.org/#opaque-host"""

    __slots__ = ()


class EmptyHost(str):
    """https://url.spec.whatwg.org/#empty-host"""

    __slots__ = ()


class IPv4Address(int):
    """https://url.spec.whatwg.org/#concept-ipv4"""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"IPv4Address({serialize_ipv4(self)!r})"


class IPv6Address(tuple):
    """https://url.spec.whatwg.org/#concept-ipv6 (a tuple of eight 16-bit pieces)"""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"IPv6Address({serialize_ipv6(self)!r})"


Host = Domain | IPv4Address | IPv6Address | OpaqueHost | EmptyHost

# FORBIDDEN_HOST_CODE_POINTS and FORBIDDEN_DOMAIN_CODE_POINTS are engine.infra's (defined there
# once, for this module and engine.idna).
_forbidden_host = re.compile(character_class(FORBIDDEN_HOST_CODE_POINTS)).search
_percent_encoded_byte = re.compile("%[0-9A-Fa-f]{2}").search
_not_url_code_point_or_percent = NOT_URL_CODE_POINT_OR_PERCENT.search
_percent_not_followed_by_hex = PERCENT_NOT_FOLLOWED_BY_TWO_HEX_DIGITS.search


def _check_str(name: str, value: object) -> None:
    if not isinstance(value, str):
        raise TypeError(f"{name}() takes str, not {type(value).__name__}")


def parse_host(input: str, is_opaque: bool = False, *, errors: list[str] | None = None) -> Host:
    """https://url.spec.whatwg.org/#concept-host-parser"""
    if not isinstance(input, str):
        raise TypeError(f"parse_host() takes str, not {type(input).__name__}")
    # 1. If input starts with U+005B ([), then:
    if input[:1] == "[":
        # 1.1. If input does not end with U+005D (]), IPv6-unclosed validation error, return failure.
        if input[-1] != "]":
            raise fail(errors, "IPv6-unclosed")
        # 1.2. Return the result of IPv6 parsing input with its leading [ and trailing ] removed.
        return parse_ipv6(input[1:-1], errors=errors)
    # 2. If isOpaque is true, then return the result of opaque-host parsing input.
    if is_opaque:
        return parse_opaque_host(input, errors=errors)
    # 3. Assert: input is not the empty string. (An empty input fails in the domain parser.)
    if "%" in input:
        # 4. If input contains a percent-encoded byte, domain-percent-encoded validation error.
        if _percent_encoded_byte(input):
            validation_error(errors, "domain-percent-encoded")
        # 5. Let domain be the result of running UTF-8 decode without BOM on the
        # percent-decoding of input.
        domain = percent_decode(to_scalar_value_string(input).encode("utf-8")).decode(
            "utf-8", "replace"
        )
    else:
        domain = input
    # 6./7. Let asciiDomain be the result of running the domain parser with domain and false.
    ascii_domain = domain_to_ascii(domain, False, errors=errors)
    # 8. If asciiDomain ends in a number, then return the result of IPv4 parsing asciiDomain.
    if ends_in_a_number_search(ascii_domain) is not None:
        return parse_ipv4(ascii_domain, errors=errors)
    # 9. Return asciiDomain.
    return Domain(ascii_domain)


#: https://url.spec.whatwg.org/#ends-in-a-number-checker as one regular expression search (a
#: match where input ends in a number, else None), for the host parser and the URL parser's fast
#: path, which have a str already: the last label (a trailing empty one aside) is ASCII digits, or
#: "0x" or "0X" and ASCII hex digits (the IPv4 number parser's other successes are all ASCII
#: digits). tests/engine/test_hosts.py checks it against ends_in_a_number on every string of a small
#: alphabet.
ends_in_a_number_search = re.compile(r"(?:\A|\.)(?:[0-9]+|0[xX][0-9A-Fa-f]*)\.?\Z").search


def ends_in_a_number(input: str) -> bool:
    """https://url.spec.whatwg.org/#ends-in-a-number-checker"""
    _check_str("ends_in_a_number", input)
    # 2./3. Strictly split on U+002E (.); drop a trailing empty item.
    parts = input.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    # 4. Let last be the last item in parts.
    last = parts[-1]
    # 5. If last is non-empty and contains only ASCII digits, then return true.
    if last and last.isascii() and last.isdigit():
        return True
    # 6. If parsing last as an IPv4 number does not return failure, then return true.
    # (Equivalent to: "0x" or "0X" followed by zero or more ASCII hex digits.)
    if last[:2] in ("0x", "0X") and not last[2:].strip("0123456789ABCDEFabcdef"):
        return True
    return False




def parse_ipv4_number(input: str) -> tuple[int, bool]:
    """https://url.spec.whatwg.org/#ipv4-number-parser

    Returns (number, validationError); raises Failure where the Standard returns failure.
    """
    # 1. If input is the empty string, then return failure.
    if not input:
        raise Failure("IPv4-non-numeric-part")
    validation_error = False
    digits = "0123456789"
    radix = 10
    # 4. "0x"/"0X": hexadecimal.
    if len(input) >= 2 and input[0] == "0" and input[1] in "xX":
        validation_error = True
        input = input[2:]
        digits, radix = "0123456789ABCDEFabcdef", 16
    # 5. A leading 0 (and at least two code points): octal.
    elif len(input) >= 2 and input[0] == "0":
        validation_error = True
        input = input[1:]
        digits, radix = "01234567", 8
    # 6. If input is the empty string, then return (0, true).
    if not input:
        return 0, True
    # 7. If input contains a code point that is not a radix-R digit, then return failure.
    # (Stripping the digits from both ends leaves something exactly when one is not a digit.)
    if input.strip(digits):
        raise Failure("IPv4-non-numeric-part")
    # 8. The mathematical integer value represented by input in radix-R notation.
    # (int() of a very long string is refused by CPython's digit limit for radix 10; any number
    # of more than ten digits is out of range anyway, so it is capped without changing a result.)
    if len(input) > 4300:
        input = input.lstrip("0") or "0"
        if len(input) > 4300:
            return 1 << 64, validation_error
    return int(input, radix), validation_error


def parse_ipv4(input: str, *, errors: list[str] | None = None) -> IPv4Address:
    """https://url.spec.whatwg.org/#concept-ipv4-parser"""
    _check_str("parse_ipv4", input)
    # 1. Let parts be the result of strictly splitting input on U+002E (.).
    parts = input.split(".")
    # 2. If the last item in parts is the empty string, then:
    if parts[-1] == "":
        validation_error(errors, "IPv4-empty-part")
        if len(parts) > 1:
            parts.pop()
    # 3. If parts's size is less than 4, IPv4-too-few-parts validation error.
    if len(parts) < 4:
        validation_error(errors, "IPv4-too-few-parts")
    # 4. If parts's size is greater than 4, IPv4-too-many-parts validation error, return failure.
    if len(parts) > 4:
        raise fail(errors, "IPv4-too-many-parts")
    # 5./6. Parse each part as an IPv4 number.
    numbers = []
    for part in parts:
        try:
            number, non_decimal = parse_ipv4_number(part)
        except Failure:
            raise fail(errors, "IPv4-non-numeric-part") from None
        if non_decimal:
            validation_error(errors, "IPv4-non-decimal-part")
        numbers.append(number)
    # 7. If any item in numbers is greater than 255, IPv4-out-of-range-part validation error.
    if any(n > 255 for n in numbers):
        validation_error(errors, "IPv4-out-of-range-part")
        # 8. If any but the last item in numbers is greater than 255, then return failure. (Only
        # where step 7 found one can one be.)
        if any(n > 255 for n in numbers[:-1]):
            raise Failure("IPv4-out-of-range-part")
    # 9. If the last item is greater than or equal to 256^(5 - numbers's size), return failure.
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        raise Failure("IPv4-out-of-range-part")
    # 10.-14. Let ipv4 be the last item; add each other n times 256^(3 - counter).
    ipv4 = numbers.pop()
    for counter, n in enumerate(numbers):
        ipv4 += n * 256 ** (3 - counter)
    return IPv4Address(ipv4)


def parse_ipv6(input: str, *, errors: list[str] | None = None) -> IPv6Address:
    """https://url.spec.whatwg.org/#concept-ipv6-parser"""
    _check_str("parse_ipv6", input)
    # 1.-4. address of eight 0 pieces, pieceIndex 0, compress null, pointer at 0.
    address = [0] * 8
    piece_index = 0
    compress = None
    pointer = 0
    n = len(input)
    hex_digits = ASCII_HEX_DIGITS
    # 5. If c is U+003A (:), then:
    if input[:1] == ":":
        # 5.1. If remaining does not start with U+003A (:), IPv6-invalid-compression.
        if input[1:2] != ":":
            raise fail(errors, "IPv6-invalid-compression")
        # 5.2./5.3.
        pointer += 2
        piece_index += 1
        compress = piece_index
    # 6. While c is not the EOF code point:
    while pointer < n:
        # 6.1. If pieceIndex is 8, IPv6-too-many-pieces validation error, return failure.
        if piece_index == 8:
            raise fail(errors, "IPv6-too-many-pieces")
        # 6.2. If c is U+003A (:), then:
        if input[pointer] == ":":
            if compress is not None:
                raise fail(errors, "IPv6-multiple-compression")
            pointer += 1
            piece_index += 1
            compress = piece_index
            continue
        # 6.3./6.4. Up to four ASCII hex digits make a piece.
        value = length = 0
        while length < 4 and pointer < n and input[pointer] in hex_digits:
            value = value * 0x10 + int(input[pointer], 16)
            pointer += 1
            length += 1
        c = input[pointer] if pointer < n else None
        # 6.5. If c is U+002E (.), then: (an IPv4 address in the last two pieces)
        if c == ".":
            if length == 0:
                raise fail(errors, "IPv4-in-IPv6-invalid-code-point")
            pointer -= length
            if piece_index > 6:
                raise fail(errors, "IPv4-in-IPv6-too-many-pieces")
            piece_index = _parse_ipv4_in_ipv6(input, pointer, address, piece_index, errors)
            break
        # 6.6. Otherwise, if c is U+003A (:): increase pointer; EOF then is an error.
        elif c == ":":
            pointer += 1
            if pointer >= n:
                raise fail(errors, "IPv6-invalid-code-point")
        # 6.7. Otherwise, if c is not the EOF code point, IPv6-invalid-code-point.
        elif c is not None:
            raise fail(errors, "IPv6-invalid-code-point")
        # 6.8. A piece with a leading zero.
        if length > 1 and value < 0x10 ** (length - 1):
            validation_error(errors, "IPv6-piece-leading-zero")
        # 6.9./6.10.
        address[piece_index] = value
        piece_index += 1
    # 7. If compress is non-null, move the pieces after it to the end.
    if compress is not None:
        swaps = piece_index - compress
        piece_index = 7
        while piece_index != 0 and swaps > 0:
            j = compress + swaps - 1
            address[piece_index], address[j] = address[j], address[piece_index]
            piece_index -= 1
            swaps -= 1
    # 8. Otherwise, if compress is null and pieceIndex is not 8, IPv6-too-few-pieces.
    elif piece_index != 8:
        raise fail(errors, "IPv6-too-few-pieces")
    return IPv6Address(address)


def _parse_ipv4_in_ipv6(input: str, pointer: int, address: list[int], piece_index: int,
                        errors: list[str] | None) -> int:
    """https://url.spec.whatwg.org/#concept-ipv6-parser, steps 6.5.4 to 6.5.6: the dotted-decimal
    IPv4 address from ``pointer`` to the end of ``input`` into the two pieces of ``address`` from
    ``piece_index``; returns pieceIndex after them."""
    n = len(input)
    # 6.5.4. Let numbersSeen be 0. 6.5.5. While c is not the EOF code point:
    numbers_seen = 0
    while pointer < n:
        # 6.5.5.1. Let ipv4Piece be null.
        ipv4_piece = None
        # 6.5.5.2. After the first number, a "." (and fewer than four numbers seen) is skipped;
        # anything else is IPv4-in-IPv6-invalid-code-point, return failure.
        if numbers_seen > 0:
            if input[pointer] == "." and numbers_seen < 4:
                pointer += 1
            else:
                raise fail(errors, "IPv4-in-IPv6-invalid-code-point")
        # 6.5.5.3. c not an ASCII digit: IPv4-in-IPv6-invalid-code-point, return failure.
        if pointer >= n or input[pointer] not in ASCII_DIGITS:
            raise fail(errors, "IPv4-in-IPv6-invalid-code-point")
        # 6.5.5.4. While c is an ASCII digit: no leading zero, at most 255.
        while pointer < n and input[pointer] in ASCII_DIGITS:
            number = ord(input[pointer]) - 0x30
            if ipv4_piece is None:
                ipv4_piece = number
            elif ipv4_piece == 0:
                raise fail(errors, "IPv4-in-IPv6-invalid-code-point")
            else:
                ipv4_piece = ipv4_piece * 10 + number
            if ipv4_piece > 255:
                raise fail(errors, "IPv4-in-IPv6-out-of-range-part")
            pointer += 1
        # 6.5.5.5. address[pieceIndex] = address[pieceIndex] × 0x100 + ipv4Piece.
        address[piece_index] = address[piece_index] * 0x100 + ipv4_piece
        # 6.5.5.6./6.5.5.7. After the second and fourth numbers, the next piece.
        numbers_seen += 1
        if numbers_seen in (2, 4):
            piece_index += 1
    # 6.5.6. If numbersSeen is not 4, IPv4-in-IPv6-too-few-parts validation error, return failure.
    if numbers_seen != 4:
        raise fail(errors, "IPv4-in-IPv6-too-few-parts")
    return piece_index


def parse_opaque_host(input: str, *, errors: list[str] | None = None) -> OpaqueHost | EmptyHost:
    """https://url.spec.whatwg.org/#concept-opaque-host-parser"""
    _check_str("parse_opaque_host", input)
    # 1. If input contains a forbidden host code point, host-invalid-code-point, return failure.
    if _forbidden_host(input):
        raise fail(errors, "host-invalid-code-point")
    # 2. A code point that is not a URL code point and not U+0025 (%): invalid-URL-unit.
    if _not_url_code_point_or_percent(input):
        validation_error(errors, "invalid-URL-unit")
    # 3. A U+0025 (%) not followed by two ASCII hex digits: invalid-URL-unit.
    if _percent_not_followed_by_hex(input):
        validation_error(errors, "invalid-URL-unit")
    # 4. Return the result of UTF-8 percent-encoding input using the C0 control set.
    if not input:
        return EmptyHost("")
    return OpaqueHost(percent_encode_utf8(input, C0_CONTROL_PERCENT_ENCODE_SET, False))


def serialize_host(host: Host) -> str:
    """https://url.spec.whatwg.org/#concept-host-serializer"""
    if isinstance(host, str):  # a domain, an opaque host or an empty host
        return str(host)
    if isinstance(host, IPv4Address):
        return serialize_ipv4(host)
    if isinstance(host, IPv6Address):
        return "[" + serialize_ipv6(host) + "]"
    raise TypeError(f"serialize_host() takes a host, not {type(host).__name__}")


def serialize_ipv4(address: int) -> str:
    """https://url.spec.whatwg.org/#concept-ipv4-serializer"""
    if not isinstance(address, int) or not 0 <= address <= 0xFFFFFFFF:
        raise TypeError("serialize_ipv4() takes a 32-bit unsigned integer")
    return f"{address >> 24}.{(address >> 16) & 255}.{(address >> 8) & 255}.{address & 255}"


def find_ipv6_compressed_piece_index(address: tuple[int, ...]) -> int | None:
    """https://url.spec.whatwg.org/#find-the-ipv6-address-compressed-piece-index"""
    longest_index = None
    longest_size = 1
    found_index = None
    found_size = 0
    for piece_index, piece in enumerate(address):
        if piece != 0:
            if found_size > longest_size:
                longest_index, longest_size = found_index, found_size
            found_index = None
            found_size = 0
        else:
            if found_index is None:
                found_index = piece_index
            found_size += 1
    if found_size > longest_size:
        return found_index
    return longest_index


def serialize_ipv6(address: tuple[int, ...]) -> str:
    """https://url.spec.whatwg.org/#concept-ipv6-serializer"""
    if (
        not isinstance(address, (tuple, list))
        or len(address) != 8
        or not all(isinstance(p, int) and 0 <= p <= 0xFFFF for p in address)
    ):
        raise TypeError("serialize_ipv6() takes eight 16-bit unsigned integers")
    compress = find_ipv6_compressed_piece_index(address)
    if compress is None:
        return ":".join(f"{p:x}" for p in address)
    end = compress
    while end < 8 and address[end] == 0:
        end += 1
    head = ":".join(f"{p:x}" for p in address[:compress])
    tail = ":".join(f"{p:x}" for p in address[end:])
    return head + "::" + tail


def hosts_equal(a: Host, b: Host) -> bool:
    """https://url.spec.whatwg.org/#concept-host-equals"""
    for host in (a, b):
        if not isinstance(host, (Domain, IPv4Address, IPv6Address, OpaqueHost, EmptyHost)):
            raise TypeError(f"hosts_equal() takes hosts, not {type(host).__name__}")
    return type(a) is type(b) and a == b
