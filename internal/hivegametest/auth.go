package hivegametest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Tokens are the site's: jsonwebtoken's Header::default() ({"typ":"JWT",
// "alg":"HS256"}) and Claims {sub, iss, exp} in that order, HS256 over the
// configured secret (apis/src/api/v1/auth/encode.rs). sub is the e-mail
// address the client sent, as it sent it.

// leeway is jsonwebtoken's Validation::default() leeway: a token works for
// 60 s after its exp.
const leeway = 60

// tokenHeader is the encoded Header::default(), {"typ":"JWT","alg":"HS256"}:
// the prefix of every token the site issues.
const tokenHeader = "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9"

// claims is encode.rs's Claims, in its field order.
type claims struct {
	Sub string `json:"sub"`
	Iss string `json:"iss"`
	Exp int64  `json:"exp"`
}

// issueToken is jwt_encode.
func (s *Server) issueToken(sub string, now time.Time) string {
	payload, _ := json.Marshal(claims{Sub: sub, Iss: "hivegame.com", Exp: now.Add(s.lifetime).Unix()})
	msg := tokenHeader + "." + base64.RawURLEncoding.EncodeToString(payload)
	return msg + "." + s.sign(msg)
}

func (s *Server) sign(msg string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(msg))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// jwtAlgorithms are jsonwebtoken's Algorithm variants, which a header's alg
// must name to be read at all.
var jwtAlgorithms = []string{"HS256", "HS384", "HS512", "ES256", "ES384", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"}

// verifyToken is jwt_decode: jsonwebtoken 9's decode with
// Validation::default(), step by step, so that each failure is the
// jsonwebtoken error Display the Auth extractor puts in data.message.
func (s *Server) verifyToken(tok string, now time.Time) (sub, errText string) {
	i := strings.LastIndexByte(tok, '.')
	if i < 0 {
		return "", "InvalidToken"
	}
	sig, message := tok[i+1:], tok[:i]
	j := strings.LastIndexByte(message, '.')
	if j < 0 {
		return "", "InvalidToken"
	}
	payload, header := message[j+1:], message[:j]
	hb, e := b64decode(header)
	if e != "" {
		return "", e
	}
	hv, serr := parseJSON(hb)
	if serr != nil {
		return "", "JSON error: " + serr.msg + position(hb, serr.at)
	}
	alg := ""
	hr, serr := readStruct(hv, "Header")
	if serr == nil {
		serr = hr.fields([]string{"alg"}, func(_ string, v *jval) *serdeError {
			var err *serdeError
			alg, err = asUnitVariant(v, jwtAlgorithms...)
			return err
		})
	}
	if serr == nil {
		serr = hr.require("alg")
	}
	if serr != nil {
		return "", "JSON error: " + serr.msg + position(hb, serr.at)
	}
	if alg != "HS256" {
		return "", "InvalidAlgorithm"
	}
	if !hmac.Equal([]byte(sig), []byte(s.sign(message))) {
		return "", "InvalidSignature"
	}
	pb, e := b64decode(payload)
	if e != "" {
		return "", e
	}
	pv, serr := parseJSON(pb)
	if serr != nil {
		return "", "JSON error: " + serr.msg + position(pb, serr.at)
	}
	if pv.kind != 'o' {
		return "", "JSON error: " + invalidType(pv, "struct ClaimsForValidation").msg + position(pb, pv.end)
	}
	// jsonwebtoken 9's decode reads the claims into the caller's type
	// first (Claims {sub, iss, exp: i64}, all required) and only then
	// validates them: exp must read as a u64 (a negative one counts as
	// missing), now > exp + leeway is expired, and an aud claim is refused
	// since Validation::default() names no audience.
	cr, _ := readStruct(pv, "Claims")
	serr = cr.fields([]string{"sub", "iss", "exp"}, func(k string, v *jval) *serdeError {
		var err *serdeError
		switch k {
		case "sub":
			sub, err = asString(v)
		case "iss":
			_, err = asString(v)
		case "exp":
			_, err = asInt(v, "i64", -1<<63, 1<<63-1)
		}
		return err
	})
	if serr == nil {
		serr = cr.require("sub", "iss", "exp")
	}
	if serr != nil {
		return "", "JSON error: " + serr.msg + position(pb, serr.at)
	}
	var exp uint64
	haveExp, haveAud := false, false
	for _, f := range pv.fields {
		switch f.key {
		case "exp":
			if n, err := strconv.ParseUint(f.val.str, 10, 64); err == nil {
				exp, haveExp = n, true
			}
		case "aud":
			haveAud = true
		}
	}
	if !haveExp {
		return "", "Missing required claim: exp"
	}
	if nowSec := uint64(max(now.Unix(), 0)); exp < nowSec-min(nowSec, leeway) {
		return "", "ExpiredSignature"
	}
	if haveAud {
		return "", "InvalidAudience"
	}
	return sub, ""
}

// b64decode decodes a token part as the base64 crate's URL_SAFE_NO_PAD does,
// with its error Display after jsonwebtoken's "Base64 error: ".
func b64decode(part string) ([]byte, string) {
	for k := 0; k < len(part); k++ {
		c := part[k]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			if c == '=' {
				return nil, "Base64 error: Invalid padding"
			}
			return nil, fmt.Sprintf("Base64 error: Invalid symbol %d, offset %d.", c, k)
		}
	}
	if len(part)%4 == 1 {
		return nil, "Base64 error: Invalid input length."
	}
	out, err := base64.RawURLEncoding.Strict().DecodeString(part)
	if err != nil {
		last := len(part) - 1
		return nil, fmt.Sprintf("Base64 error: Invalid last symbol %d, offset %d.", part[last], last)
	}
	return out, ""
}

// authError is the Auth extractor's create_error_response: data.message, not
// data.error, with a real status.
func authError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"success": false, "data": map[string]any{"message": msg}})
}

// authenticate is the Auth extractor (apis/src/api/v1/auth/auth_.rs): the
// second space-separated word of the first Authorization header, whatever
// the first word is; the token's sub looked up as an e-mail address, then
// as a username; the account must be a bot. It answers the failures itself.
// The caller holds s.mu.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (*user, bool) {
	token, ok := "", false
	if vals := r.Header.Values("Authorization"); len(vals) > 0 && visibleASCII(vals[0]) {
		if parts := strings.Split(vals[0], " "); len(parts) > 1 {
			token, ok = parts[1], true
		}
	}
	if !ok {
		authError(w, http.StatusUnauthorized, "No token provided")
		return nil, false
	}
	sub, e := s.verifyToken(token, s.now())
	if e != "" {
		authError(w, http.StatusUnauthorized, e)
		return nil, false
	}
	u := s.userByLogin(sub)
	if u == nil {
		authError(w, http.StatusBadRequest, "User not found")
		return nil, false
	}
	if !u.bot {
		authError(w, http.StatusUnauthorized, "Not a bot")
		return nil, false
	}
	return u, true
}

// visibleASCII is http's HeaderValue::to_str: a value with other bytes
// cannot be read as text, which the extractor treats as no token.
func visibleASCII(v string) bool {
	for k := 0; k < len(v); k++ {
		if c := v[k]; c != '\t' && (c < 0x20 || c > 0x7e) {
			return false
		}
	}
	return true
}

// userByLogin is User::find_for_login: the e-mail address (lower-cased),
// then the username (case-insensitively). The caller holds s.mu.
func (s *Server) userByLogin(login string) *user {
	if u := s.byEmail[strings.ToLower(login)]; u != nil {
		return u
	}
	return s.byName[strings.ToLower(login)]
}

// handleToken is POST /api/v1/auth/token (get_token_handler.rs, N).
func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	v, body, ok := readBody(w, r)
	if !ok {
		return
	}
	var email, password string
	sr, serr := readStruct(v, "Bot")
	if serr == nil {
		serr = sr.fields([]string{"email", "password"}, func(k string, v *jval) *serdeError {
			var err *serdeError
			if k == "email" {
				email, err = asString(v)
			} else {
				password, err = asString(v)
			}
			return err
		})
	}
	if serr == nil {
		serr = sr.require("email", "password")
	}
	if serr != nil {
		deserializeError(w, body, serr)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	fail := func(msg string) {
		writeJSON(w, http.StatusBadRequest, map[string]any{"success": false, "data": map[string]any{"message": msg}})
	}
	u := s.userByLogin(email)
	switch {
	case u == nil:
		fail("Not found: Not found.")
	case !u.bot:
		fail("Not a bot")
	case !hmac.Equal([]byte(password), []byte(u.password)):
		fail("error running server function: Password does not match.")
	default:
		s.tokensIssued++
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "data": map[string]any{"token": s.issueToken(email, s.now())}})
	}
}

// handleIdentity is GET /api/v1/auth/id (get_identity_handler.rs, newest).
func (s *Server) handleIdentity(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "data": map[string]any{"bot": u.email, "user_id": u.id}})
}
