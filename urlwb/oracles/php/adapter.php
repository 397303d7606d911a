<?php
// PHP's parse_url behind the workbench's oracle protocol (docs/oracle-protocol.md, urlwb-oracle/1):
// one JSON request per line on stdin, one JSON answer per line on stdout, in the same order.
//
// parse_url (https://www.php.net/manual/en/function.parse-url.php) splits a string into its parts
// and resolves nothing: the hello line says "base": false, so the supervisor never sends a base.
// It rejects by returning false, with no message.

// Quirks, normalized here and nowhere else (listed in oracles.toml):
// - json_decode refuses a lone surrogate escape ("Single unpaired UTF-16 surrogate"); PHP strings
//   are bytes and cannot hold one, so the protocol asks for U+FFFD in its place, before decoding.
//   The regex walks the escapes left to right: a surrogate pair is kept, a lone surrogate becomes
//   \ufffd, any other escape (\\ included, so "\\udc80" stays text) is kept.
// - parse_url has no serializer: href is null.
// - Absent parts are missing from parse_url's array: null; "?" and "#" with nothing after them
//   give "" (PHP 8), so "" and absent are told apart.
// - Components are bytes; any that are not UTF-8 become U+FFFD when encoded
//   (JSON_INVALID_UTF8_SUBSTITUTE).

const LONE_SURROGATE = '/\\\\u[dD][89abAB][0-9a-fA-F]{2}\\\\u[dD][c-fC-F][0-9a-fA-F]{2}'
    . '|\\\\u[dD][89a-fA-F][0-9a-fA-F]{2}|\\\\./';

function to_scalar_values(string $line): string
{
    if (stripos($line, '\\ud') === false) {
        return $line;
    }
    return preg_replace_callback(LONE_SURROGATE, function ($m) {
        return strlen($m[0]) === 6 ? '\\ufffd' : $m[0];  // a lone surrogate
    }, $line);
}

function answer(array $a): void
{
    fwrite(STDOUT, json_encode($a, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE) . "\n");
    fflush(STDOUT);
}

function parse(string $input): array
{
    $p = parse_url($input);
    if ($p === false) {
        return ['error' => 'parse_url returned false'];
    }
    return [
        'scheme' => $p['scheme'] ?? null,
        'username' => $p['user'] ?? null,
        'password' => $p['pass'] ?? null,
        'host' => $p['host'] ?? null,
        'port' => $p['port'] ?? null,
        'path' => $p['path'] ?? null,
        'query' => $p['query'] ?? null,
        'fragment' => $p['fragment'] ?? null,
        'href' => null,
    ];
}

answer([
    'hello' => 'urlwb-oracle/1',
    'name' => 'php-parse-url',
    'parser' => 'parse_url',
    'language' => 'PHP',
    'version' => 'PHP ' . PHP_VERSION,
    'family' => 'other',
    'kind' => 'url',
    'base' => false,
]);

while (($line = fgets(STDIN)) !== false) {
    $req = json_decode(to_scalar_values($line), true);
    if (!is_array($req) || !isset($req['id'])) {
        fwrite(STDERR, 'not a request: ' . substr($line, 0, 200) . "\n");
        continue;
    }
    $id = $req['id'];
    if (!is_string($req['input'] ?? null)) {
        answer(['id' => $id, 'crash' => 'request without a string input']);
    } elseif (($req['base'] ?? null) !== null) {
        answer(['id' => $id, 'not_applicable' => 'parse_url resolves no base']);
    } else {
        answer(['id' => $id] + parse($req['input']));
    }
}
