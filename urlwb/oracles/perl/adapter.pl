#!/usr/bin/perl
# Perl's URI (liburi-perl) behind the workbench's oracle protocol (docs/oracle-protocol.md,
# urlwb-oracle/1): one JSON request per line on stdin, one JSON answer per line on stdout, in the
# same order.
#
# URI->new($input), or with a base URI->new_abs($input, $base). URI never rejects: whatever it is
# given becomes an object (escaping what is not allowed), so every answer is accepted; a die from
# inside URI is undocumented and answered as a crash.
use strict;
use warnings;

use Encode ();
use JSON::PP ();
use URI ();
use URI::_userpass ();

# JSON::XS (libjson-xs-perl) where installed: the same API as core's JSON::PP, and the adapter
# spends most of its time in JSON (JSON::PP: about 110 of 160 microseconds per input).
my $JSON = eval { require JSON::XS; 'JSON::XS' } || 'JSON::PP';
my $json_in = $JSON->new->utf8;
my $json_out = $JSON->new->ascii;

# Quirks, normalized here and nowhere else (listed in oracles.toml):
#
# JSON::PP refuses a lone surrogate escape ("missing low surrogate"); Perl strings cannot hold
# one either, so the protocol asks for U+FFFD in its place before decoding: each lone surrogate
# escape becomes \ufffd (pairs kept; \\ consumed as one escape, so "\\udc80" stays text).
sub to_scalar_values {
    my ($line) = @_;
    return $line if index(lc $line, '\\ud') < 0;
    $line =~ s/(\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2}|\\.)/
        length($1) == 6 ? '\\ufffd' : $1/ge;
    return $line;
}

# Components come from URI's own accessors, which percent-decode the host, user and password into
# octets: those are decoded as UTF-8, malformed sequences becoming U+FFFD.
sub text {
    my ($s) = @_;
    return $s if !defined $s || utf8::is_utf8($s) || $s !~ /[^\x00-\x7f]/;    # nothing to decode
    return Encode::decode('UTF-8', $s);
}

sub components {
    my ($u) = @_;
    my ($username, $password, $host, $port);
    if ($u->can('userinfo')) {    # a server-based URI (http, ftp, ...): URI::_server
        # URI's user/password split of the userinfo (URI::_userpass, which only ftp, ssh, ...
        # inherit): the first ":" splits, both parts percent-decoded.
        $username = URI::_userpass::user($u);
        $password = URI::_userpass::password($u);
        # host() percent-decodes and strips the brackets of an IP literal (RFC 3986 3.2.2): they
        # are put back where host() found them, its own three steps.
        $host = $u->host;
        my $h = $u->authority;
        if (defined $h) {
            $h =~ s/.*@//;
            $h =~ s/:\d+$//;
            $host = "[$host]" if $h =~ /^\[.*\]$/;
        }
        # port() reports the scheme's default port when none (or an empty one) was written;
        # _port(), which port() wraps, is the port as written: null when it is undefined or empty.
        # Digits come back as an integer; more than 15 significant ones (beyond a double's exact
        # integers) as the string written.
        my $written = $u->_port;
        if (defined $written && $written ne '') {
            (my $digits = $written) =~ s/^0+(?=\d)//;
            $port = length($digits) <= 15 ? 0 + $digits : $written;
        }
    }
    elsif ($u->can('host')) {    # file: the percent-decoded authority, no userinfo or port
        $host = $u->host;
    }
    # Other URIs (mailto:, javascript:, unknown schemes) have no host: URI reads none. data: and
    # urn: have no query either (their path is everything up to the fragment).
    return {
        scheme => $u->scheme, username => text($username), password => text($password),
        host => text($host), port => $port, path => text($u->path), query => text($u->can('query') ? $u->query : undef),
        fragment => text($u->fragment), href => text($u->as_string),
        # For debugging, ignored by the supervisor: an unknown scheme's authority is kept here.
        raw => { authority => $u->can('authority') ? text($u->authority) : undef },
    };
}

sub answer {
    my ($a) = @_;
    print STDOUT $json_out->encode($a), "\n";
}

$| = 1;    # flush after each answer
binmode STDIN, ':raw';
binmode STDOUT, ':raw';
answer({
    hello => 'urlwb-oracle/1', name => 'perl-uri',
    parser => 'URI->new (URI->new_abs with a base)', language => 'Perl',
    version => "URI $URI::VERSION (Perl " . sprintf('%vd', $^V) . ')', family => 'other',
    kind => 'url', base => JSON::PP::true,
});

while (my $line = <STDIN>) {
    my $req = $json_in->decode(to_scalar_values($line));
    my $id = $req->{id};
    my $out = eval {
        my $u = defined $req->{base} ? URI->new_abs($req->{input}, $req->{base})
                                     : URI->new($req->{input});
        components($u);
    };
    answer(defined $out ? { id => $id, %$out } : { id => $id, crash => text("$@") });
}
