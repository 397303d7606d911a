<?php
// PHP's http:// stream wrapper (file_get_contents) behind urlwb ssrf's client protocol
// (urlwb/ssrf/observe/clients.py): a hello line {"client":"php-streams","version"}; then for each
// line on stdin (a JSON string: the URL) one JSON line: {"ok":true,"status"} or
// {"ok":false,"error":CLASS,"message"}. The wrapper's defaults (follow_location on, at most 20
// redirects), a 3 s timeout, every warning turned into the answer's message.
echo json_encode(["client" => "php-streams", "version" => PHP_VERSION]), "\n";
$ctx = stream_context_create(["http" => ["timeout" => 3, "ignore_errors" => true, "max_redirects" => 6],
                              "ssl" => ["verify_peer" => true]]);
while (($line = fgets(STDIN)) !== false) {
    $url = json_decode($line);
    $warning = null;
    set_error_handler(function ($no, $str) use (&$warning) { $warning = $str; return true; });
    try {
        $body = file_get_contents($url, false, $ctx);
        if ($body === false) {
            $out = ["ok" => false, "error" => "warning", "message" => substr((string)$warning, 0, 300)];
        } else {
            $status = 0;
            foreach ($http_response_header ?? [] as $h) {
                if (preg_match('#^HTTP/\S+ (\d+)#', $h, $m)) { $status = (int)$m[1]; }
            }
            $out = ["ok" => true, "status" => $status];
        }
    } catch (Throwable $e) {
        $out = ["ok" => false, "error" => get_class($e), "message" => substr($e->getMessage(), 0, 300)];
    }
    restore_error_handler();
    echo json_encode($out, JSON_INVALID_UTF8_SUBSTITUTE), "\n";
}
