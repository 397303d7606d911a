"""The resolvers' readings of numeric hosts (urlwb/ssrf/resolvers.py), each form held to the real
thing where this machine has it: glibc's ``getaddrinfo(AI_NUMERICHOST)`` (no lookup is made),
``ipaddress`` for Go's rule, and the JDK's ``InetAddress.getByName`` through ``java`` with the
hosts file pointed nowhere (skipped with one line when ``java`` is missing)."""

from __future__ import annotations

import ipaddress
import random
import shutil
import socket
import subprocess
import textwrap

import pytest

from urlwb.ssrf import inputs, policy, resolvers

#: one of each form the module docstring names, and its neighbours that are not addresses
FORMS = ["127.0.0.1", "127.1", "127.0.1", "0x7f.1", "0X7F.0.0.1", "0177.0.0.1", "00177.0.0.1",
         "2130706433", "0x7f000001", "017700000001", "127.0.0.1.", "0", "00", "0x", "08", "09.1",
         "0x7f.0x0.0.1", "1.2.3.256", "4294967295", "4294967296", "1..2", ".1", "1.2.3.4.5",
         "127.0.0.01", "0xffffffff", "0x100000000", "1.16777215", "1.16777216", "1.2.65535",
         "1.2.65536", "127.0.0.1 ", " 127.0.0.1", "127.0.0.1x", "१२७.0.0.1", "::1", "::", "::ffff:127.0.0.1",
         "::127.0.0.1", "::ffff:7f00:1", "fe80::1%lo", "0:0:0:0:0:0:0:1", "::ffff:0177.0.0.1", "1::2::3",
         "[::1]", "localhost", "a.b", ""]


def _getaddrinfo(host: str):
    """glibc's own answer: the address, or NAME when AI_NUMERICHOST refuses it."""
    h = resolvers.strip_brackets(host)
    try:
        info = socket.getaddrinfo(h.encode("utf-8"), 80, flags=socket.AI_NUMERICHOST, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError):
        return resolvers.NAME
    addr = ipaddress.ip_address(info[0][4][0].split("%")[0])
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped:
        return addr.ipv4_mapped
    return addr


def _generated() -> list[str]:
    rng = random.Random(7)
    out = []
    for target in ("127.0.0.1", "10.0.0.1", "169.254.169.254", "0.0.0.0", "::1", "fd00:ec2::254"):
        out += [resolvers.strip_brackets(h) for h in inputs.spellings(target, rng)]
    return out


@pytest.mark.parametrize("host", FORMS + _generated())
def test_getaddrinfo_reading_is_glibcs(host):
    got = resolvers.read_getaddrinfo(host)
    want = _getaddrinfo(host)
    if isinstance(want, ipaddress.IPv6Address) and "%" in host:
        got = ipaddress.IPv6Address(str(got).split("%")[0])
    assert got == want, f"{host!r}: reading {got}, glibc {want}"


def test_inet_aton_exact_agrees_with_socket_inet_aton_on_every_form_without_trailing_text():
    """socket.inet_aton is glibc's lenient inet_aton: it agrees wherever nothing trails the
    address (the exact form refuses trailing text, the lenient one stops at a space)."""
    for host in FORMS + _generated():
        if not host.isascii() or " " in host or "\t" in host or "\n" in host:
            continue
        try:
            want = ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            want = None
        assert resolvers.inet_aton_exact(host) == want, host


@pytest.mark.parametrize("host", FORMS + _generated())
def test_go_reading_is_parseips_rule(host):
    """Go's net.ParseIP: dotted decimal without leading zeros, or IPv6; never a short form."""
    h = resolvers.strip_brackets(host)
    try:
        want = ipaddress.ip_address(h) if "%" not in h and h.isascii() else resolvers.NAME
    except ValueError:
        want = resolvers.NAME
    if isinstance(want, ipaddress.IPv6Address) and want.ipv4_mapped:
        want = want.ipv4_mapped
    assert resolvers.read_go(host) == want


def test_go_refuses_the_forms_only_c_reads():
    for host in ("127.1", "0x7f.1", "0177.0.0.1", "2130706433", "127.000.0.1"):
        assert resolvers.read_go(host) == resolvers.NAME, host
        assert resolvers.read_getaddrinfo(host) != resolvers.NAME, host


#: measured with JDK 17.0.15: InetAddress.getByName(host).getHostAddress(), or how it failed
JAVA = {"127.1": "127.0.0.1", "0x7f.1": resolvers.REFUSED, "0177.0.0.1": "177.0.0.1",
        "2130706433": "127.0.0.1", "127.0.0.1.": resolvers.NAME, "127.000.000.001": "127.0.0.1",
        "010.0.0.1": "10.0.0.1", "127.0.1": "127.0.0.1", "0": "0.0.0.0", "1.2.3.4.5": resolvers.NAME,
        "256.0.0.1": resolvers.NAME, "[::1]": "::1", "::ffff:127.0.0.1": "127.0.0.1",
        "::127.0.0.1": "::7f00:1", "[::ffff:7f00:1]": "127.0.0.1", "4294967295": "255.255.255.255",
        "4294967296": resolvers.NAME, "00127.0.0.1": "127.0.0.1", " 127.0.0.1": resolvers.NAME,
        "localhost": resolvers.NAME}


@pytest.mark.parametrize("host", list(JAVA))
def test_java_reading_matches_the_measured_jdk(host):
    want = JAVA[host]
    got = resolvers.read_java(host)
    assert (str(got) if not isinstance(got, str) else got) == want


@pytest.mark.skipif(shutil.which("java") is None, reason="java not on PATH: the JDK cross-check is skipped")
def test_java_table_is_what_this_jdk_says(tmp_path):
    """The table above, asked of this machine's JDK (hosts file pointed nowhere: no DNS)."""
    src = tmp_path / "G.java"
    src.write_text(textwrap.dedent("""
        import java.net.*;
        public class G { public static void main(String[] a) { for (String s : a) {
          try { System.out.println(InetAddress.getByName(s).getHostAddress()); }
          catch (UnknownHostException e) { System.out.println(e.getMessage().contains("hosts file") ? "name" : "refused"); } } } }
    """))
    hosts = [h for h in JAVA if h != "localhost"]
    r = subprocess.run(["java", "-Djdk.net.hosts.file=/nonexistent", str(src), *hosts], capture_output=True,
                       text=True, timeout=120)
    seen = r.stdout.split("\n")
    for host, line in zip(hosts, seen):
        got = line.strip()
        if got not in (resolvers.NAME, resolvers.REFUSED):
            got = str(ipaddress.ip_address(got.split("%")[0]))
        assert got == JAVA[host], f"{host!r}: the JDK says {got}"


def test_ipv4_mapped_is_its_ipv4_and_compatible_is_judged_only_when_asked():
    default = policy.parse(None, None)
    asked = policy.parse("loopback,private,ipv4-compatible", None)
    mapped = policy.Destination("[::ffff:10.0.0.1]", resolvers.read_getaddrinfo("[::ffff:10.0.0.1]"))
    compat = policy.Destination("[::10.0.0.1]", resolvers.read_getaddrinfo("[::10.0.0.1]"))
    assert default.denied(mapped) == "private"
    assert default.denied(compat) is None
    assert asked.denied(compat) == "private"


@pytest.mark.parametrize("host,category", [
    ("127.0.0.1", "loopback"), ("0.0.0.0", "loopback"), ("[::]", "loopback"), ("[::1]", "loopback"),
    ("10.1.2.3", "private"), ("172.31.0.1", "private"), ("192.168.1.1", "private"), ("[fd00::1]", "private"),
    ("169.254.0.1", "link-local"), ("[fe80::1]", "link-local"), ("169.254.169.254", "metadata"),
    ("[fd00:ec2::254]", "metadata"), ("localhost", "loopback"), ("A.LOCALHOST.", "loopback"),
    ("metadata.google.internal", "metadata"), ("8.8.8.8", None), ("example.com", None), ("172.32.0.1", None)])
def test_policy_categories(host, category):
    dest = policy.Destination(host, resolvers.read_getaddrinfo(host))
    assert policy.parse(None, None).denied(dest) == category


def test_policy_hosts_and_allow_list():
    pol = policy.parse("internal.example,*.corp.example,192.0.2.0/24", "example.com,*.cdn.example")
    d = lambda h: policy.Destination(h, resolvers.read_getaddrinfo(h))  # noqa: E731
    assert pol.denied(d("internal.example")) == "deny-list"
    assert pol.denied(d("a.corp.example")) == "deny-list"
    assert pol.denied(d("192.0.2.7")) == "deny-list"
    assert pol.denied(d("example.com")) is None
    assert pol.denied(d("x.cdn.example")) is None
    assert pol.denied(d("evil.example")) == "outside the allow-list"
    assert pol.denied(d("8.8.8.8")) == "outside the allow-list"
    assert pol.denied(policy.Destination(None)) is None
