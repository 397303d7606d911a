/* libcurl's URL API behind the workbench's oracle protocol (docs/oracle-protocol.md, urlwb-oracle/1): one
 * JSON request per line on stdin, one JSON answer per line on stdout, in the same order.
 *
 * https://curl.se/libcurl/c/curl_url_set.html, https://curl.se/libcurl/c/curl_url_get.html
 *
 * An input is set on a fresh handle with curl_url_set(CURLUPART_URL); with a base, the base is
 * set first and then the input, which curl resolves against it ("If the handle already contains
 * a URL and the new one is relative, it is resolved", the way curl follows a redirect). A non-zero
 * CURLUcode from either set is the parser's rejection; its text is curl_url_strerror's.
 *
 * Flags, chosen:
 * - set: CURLU_NON_SUPPORT_SCHEME only, so that any scheme parses (without it curl rejects every
 *   scheme this build cannot fetch, and the differential would only see its protocol list).
 *   Not CURLU_GUESS_SCHEME (which CURLOPT_URL adds): it makes "example.com/x" an http URL, and
 *   every relative string a host; not CURLU_URLENCODE or CURLU_PATH_AS_IS: the parser's defaults.
 * - get: 0 for every part. Parts come back as curl stores them (not CURLU_URLDECODE), the port
 *   only when one was written (not CURLU_DEFAULT_PORT, so no default-port normalization is
 *   needed), the URL with a written port kept (not CURLU_NO_DEFAULT_PORT), the host as stored
 *   (not CURLU_PUNYCODE).
 *
 * The JSON reader below reads exactly the protocol's requests (an object of strings, integers,
 * null, booleans; nested values are skipped); the writer writes strings and integers. Quirks are
 * handled in one place each, marked QUIRK. */

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A decoded JSON string: UTF-8 bytes, their length, and whether a NUL is among them. */
struct str {
    char *s;
    size_t len;
    int has_nul;
};

/* ---- reading ---------------------------------------------------------------------------- */

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
    return p;
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Reads the string starting at the '"' at p into out (malloc'd); returns the position after the
 * closing quote, or NULL. QUIRK: a C string cannot hold a lone surrogate, so each \uD800-\uDFFF
 * escape without its partner becomes U+FFFD, as the protocol asks. */
static const char *read_string(const char *p, struct str *out)
{
    const char *q = ++p;
    while (*q && *q != '"')
        q += (*q == '\\' && q[1]) ? 2 : 1;
    if (*q != '"') return NULL;
    /* Decoded UTF-8 is never longer than the escaped text (\uXXXX is 6 bytes, at most 3 out;
     * a pair is 12 bytes, 4 out). */
    char *o = malloc((size_t)(q - p) + 1);
    size_t n = 0;
    out->has_nul = 0;
    while (p < q) {
        if (*p != '\\') { o[n++] = *p++; continue; }
        char e = p[1];
        p += 2;
        switch (e) {
        case 'b': o[n++] = '\b'; break;
        case 'f': o[n++] = '\f'; break;
        case 'n': o[n++] = '\n'; break;
        case 'r': o[n++] = '\r'; break;
        case 't': o[n++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (p + 4 > q || !hex4(p, &cp)) { free(o); return NULL; }
            p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF && p + 6 <= q && p[0] == '\\' && p[1] == 'u'
                && hex4(p + 2, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            } else if (cp >= 0xD800 && cp <= 0xDFFF) {
                cp = 0xFFFD;
            }
            if (cp == 0) out->has_nul = 1;
            n += put_utf8(o + n, cp);
            break;
        }
        default: o[n++] = e; break; /* \" \\ \/ */
        }
    }
    o[n] = '\0';
    out->s = o;
    out->len = n;
    return q + 1;
}

/* Skips any JSON value (for fields the protocol may add); returns the position after it. */
static const char *skip_value(const char *p)
{
    int depth = 0;
    for (;;) {
        p = skip_ws(p);
        if (*p == '"') {
            struct str s;
            if (!(p = read_string(p, &s))) return NULL;
            free(s.s);
        } else if (*p == '{' || *p == '[') {
            depth++, p++;
            continue;
        } else if (*p == '}' || *p == ']') {
            if (--depth < 0) return NULL;
            p++;
        } else if (*p && !strchr(",:", *p)) {
            while (*p && !strchr(",:]} \t\r\n", *p)) p++; /* a number, true, false, null */
        } else if (*p && depth > 0) {
            p++; /* a ',' or ':' inside a nested value */
            continue;
        } else {
            return NULL;
        }
        if (depth == 0) return p;
    }
}

struct request {
    char id[32];        /* the id's JSON text, echoed back as it came */
    struct str input;
    struct str base;    /* base.s NULL when the base is null */
};

static int read_request(const char *p, struct request *r)
{
    memset(r, 0, sizeof *r);
    p = skip_ws(p);
    if (*p++ != '{') return 0;
    for (;;) {
        struct str key;
        p = skip_ws(p);
        if (*p == '}') break;
        if (*p != '"' || !(p = read_string(p, &key))) return 0;
        p = skip_ws(p);
        if (*p++ != ':') { free(key.s); return 0; }
        p = skip_ws(p);
        if (!strcmp(key.s, "id")) {
            size_t n = strspn(p, "-0123456789");
            if (n == 0 || n >= sizeof r->id) { free(key.s); return 0; }
            memcpy(r->id, p, n);
            p += n;
        } else if (!strcmp(key.s, "input") && *p == '"') {
            p = read_string(p, &r->input);
        } else if (!strcmp(key.s, "base") && *p == '"') {
            p = read_string(p, &r->base);
        } else {
            p = skip_value(p);
        }
        free(key.s);
        if (!p) return 0;
        p = skip_ws(p);
        if (*p == ',') p++;
    }
    return r->id[0] && r->input.s;
}

/* ---- writing ---------------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (of n bytes), or 0 if it is not one (overlong forms,
 * surrogates and code points above U+10FFFF are not). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    size_t len;
    unsigned cp;
    if (s[0] < 0x80) return 1;
    else if ((s[0] & 0xE0) == 0xC0) len = 2, cp = s[0] & 0x1F;
    else if ((s[0] & 0xF0) == 0xE0) len = 3, cp = s[0] & 0x0F;
    else if ((s[0] & 0xF8) == 0xF0) len = 4, cp = s[0] & 0x07;
    else return 0;
    if (len > n) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    static const unsigned min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
}

/* A JSON string. QUIRK: curl's parts are bytes; a byte that does not start a valid UTF-8
 * sequence is written as U+FFFD (one per byte), as the protocol asks. */
static void write_string(FILE *f, const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t n = strlen(s);
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        size_t len = utf8_seq(u + i, n - i);
        if (len == 0) { fputs("\\ufffd", f); i++; continue; }
        if (len == 1) {
            unsigned char c = u[i];
            if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
            else if (c < 0x20 || c == 0x7F) fprintf(f, "\\u%04x", c);
            else fputc(c, f);
        } else {
            fwrite(u + i, 1, len, f);
        }
        i += len;
    }
    fputc('"', f);
}

/* ,"name":value (sep ',') or "name":value (sep 0, a first field) */
static void write_field(FILE *f, char sep, const char *name, const char *value)
{
    if (sep) fputc(sep, f);
    fprintf(f, "\"%s\":", name);
    if (value) write_string(f, value);
    else fputs("null", f);
}

/* ---- the parser ------------------------------------------------------------------------- */

static char *part(CURLU *h, CURLUPart which)
{
    char *v = NULL;
    return curl_url_get(h, which, &v, 0) == CURLUE_OK ? v : NULL; /* CURLUE_NO_*: absent */
}

static void answer(FILE *f, const struct request *r)
{
    fprintf(f, "{\"id\":%s", r->id);
    if (r->input.has_nul || (r->base.s && r->base.has_nul)) {
        /* QUIRK: curl_url_set takes a C string; a NUL would end it early. */
        fputs(",\"not_applicable\":\"curl_url_set takes a C string: the input holds a NUL\"}\n", f);
        return;
    }
    CURLU *h = curl_url();
    CURLUcode rc = CURLUE_OK;
    if (r->base.s) rc = curl_url_set(h, CURLUPART_URL, r->base.s, CURLU_NON_SUPPORT_SCHEME);
    if (rc == CURLUE_OK) rc = curl_url_set(h, CURLUPART_URL, r->input.s, CURLU_NON_SUPPORT_SCHEME);
    if (rc != CURLUE_OK) {
        fputs(",\"error\":", f);
        write_string(f, curl_url_strerror(rc));
        if (r->base.s) fputs(",\"raw\":{\"while\":\"resolving against the base\"}", f);
        fputs("}\n", f);
        curl_url_cleanup(h);
        return;
    }
    static const struct { const char *name; CURLUPart which; } parts[] = {
        {"scheme", CURLUPART_SCHEME}, {"username", CURLUPART_USER},
        {"password", CURLUPART_PASSWORD}, {"host", CURLUPART_HOST}, {"path", CURLUPART_PATH},
        {"query", CURLUPART_QUERY}, {"fragment", CURLUPART_FRAGMENT}, {"href", CURLUPART_URL},
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char *v = part(h, parts[i].which);
        write_field(f, ',', parts[i].name, v);
        curl_free(v);
    }
    /* curl stores the port as the decimal number it read (at most 65535): an integer. */
    char *port = part(h, CURLUPART_PORT);
    fprintf(f, ",\"port\":%s", port ? port : "null");
    curl_free(port);
    /* For debugging: the parts the protocol has no field for. */
    char *options = part(h, CURLUPART_OPTIONS), *zone = part(h, CURLUPART_ZONEID);
    fputs(",\"raw\":{", f);
    write_field(f, 0, "options", options);
    write_field(f, ',', "zoneid", zone);
    fputs("}}\n", f);
    curl_free(options);
    curl_free(zone);
    curl_url_cleanup(h);
}

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    const curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);
    printf("{\"hello\":\"urlwb-oracle/1\",\"name\":\"libcurl\","
           "\"parser\":\"curl_url_set(CURLUPART_URL, CURLU_NON_SUPPORT_SCHEME) / curl_url_get\","
           "\"language\":\"C\",\"version\":\"libcurl %s\",\"family\":\"other\",\"kind\":\"url\","
           "\"base\":true}\n",
           v->version);
    fflush(stdout);

    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        struct request r;
        if (!read_request(line, &r)) {
            fprintf(stderr, "not a request: %.200s\n", line);
        } else {
            answer(stdout, &r);
            fflush(stdout);
        }
        free(r.input.s);
        free(r.base.s);
    }
    free(line);
    curl_global_cleanup();
    return 0;
}
