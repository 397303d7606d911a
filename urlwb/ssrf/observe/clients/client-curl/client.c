/* libcurl's easy interface behind urlwb ssrf's client protocol (urlwb/ssrf/observe/clients.py):
 * a hello line {"client":"curl","version"}; then for each line on stdin (a JSON string: the URL)
 * one JSON line: {"ok":true,"status"} or {"ok":false,"error":"CURLE_<n>","message"}.
 * As the curl tool with -L: CURLOPT_FOLLOWLOCATION (at most 5), every protocol libcurl was built
 * with (CURLOPT_URL guesses no scheme: the tool adds CURLU_GUESS_SCHEME, this does not), 3 s
 * timeout, no proxy (CURLOPT_NOPROXY "*"); a reused handle (connection cache) is reset per URL. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>

static size_t discard(char *p, size_t s, size_t n, void *u) { (void)p; (void)u; return s * n; }

/* the JSON string on a line, decoded (\uXXXX to UTF-8, surrogate pairs joined); NULL if not one */
static char *json_string(const char *s) {
  if (*s != '"') return NULL;
  size_t n = strlen(s);
  char *out = malloc(n * 3 + 1), *o = out;
  for (s++; *s && *s != '"'; s++) {
    if (*s != '\\') { *o++ = *s; continue; }
    s++;
    switch (*s) {
      case 'n': *o++ = '\n'; break; case 't': *o++ = '\t'; break; case 'r': *o++ = '\r'; break;
      case 'b': *o++ = '\b'; break; case 'f': *o++ = '\f'; break;
      case 'u': {
        unsigned c = 0; sscanf(s + 1, "%4x", &c); s += 4;
        if (c >= 0xD800 && c < 0xDC00 && s[1] == '\\' && s[2] == 'u') {
          unsigned d = 0; sscanf(s + 3, "%4x", &d);
          if (d >= 0xDC00 && d < 0xE000) { c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00); s += 6; }
        }
        if (c < 0x80) *o++ = (char)c;
        else if (c < 0x800) { *o++ = 0xC0 | (c >> 6); *o++ = 0x80 | (c & 63); }
        else if (c < 0x10000) { *o++ = 0xE0 | (c >> 12); *o++ = 0x80 | ((c >> 6) & 63); *o++ = 0x80 | (c & 63); }
        else { *o++ = 0xF0 | (c >> 18); *o++ = 0x80 | ((c >> 12) & 63); *o++ = 0x80 | ((c >> 6) & 63); *o++ = 0x80 | (c & 63); }
        break;
      }
      default: *o++ = *s;
    }
  }
  *o = 0;
  return out;
}

static void put_json(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20 || c >= 0x7f) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}

int main(void) {
  /* as the curl tool: the locale of the environment, UTF-8 when it names none (libidn2 reads
   * the host in the locale's encoding) */
  if (!setlocale(LC_ALL, "") || !strcmp(setlocale(LC_CTYPE, NULL), "C")) setlocale(LC_ALL, "C.UTF-8");
  curl_global_init(CURL_GLOBAL_DEFAULT);
  printf("{\"client\":\"curl\",\"version\":\"%s\"}\n", curl_version_info(CURLVERSION_NOW)->version);
  fflush(stdout);
  char *line = NULL; size_t cap = 0;
  while (getline(&line, &cap, stdin) > 0) {
    char *url = json_string(line);
    if (!url) { puts("{\"ok\":false,\"error\":\"bad-request\",\"message\":\"not a JSON string\"}"); fflush(stdout); continue; }
    CURL *h = curl_easy_init();
    char err[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 3000L);
    curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    CURLcode rc = curl_easy_perform(h);
    if (rc == CURLE_OK) {
      long status = 0; curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
      printf("{\"ok\":true,\"status\":%ld}\n", status);
    } else {
      printf("{\"ok\":false,\"error\":\"CURLE_%d\",\"message\":", (int)rc);
      put_json(err[0] ? err : curl_easy_strerror(rc));
      puts("}");
    }
    fflush(stdout);
    curl_easy_cleanup(h);
    free(url);
  }
  return 0;
}
