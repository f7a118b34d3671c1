package core

import (
	"crypto/rand"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
)

// RequestID returns a new random request id in UUID form.
func RequestID() string { return UUID() }

// UUID returns a random version 4 UUID (36 characters, 8-4-4-4-12 hex).
func UUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// WriteQueryError writes an error in the Query protocol's XML shape.
func WriteQueryError(w http.ResponseWriter, status int, code, message string) {
	writeQueryError(w, status, code, message, RequestID())
}

func writeQueryError(w http.ResponseWriter, status int, code, message, requestID string) {
	kind := "Sender"
	if status >= 500 {
		kind = "Receiver"
	}
	body := struct {
		XMLName xml.Name `xml:"ErrorResponse"`
		Error   struct {
			Type    string `xml:"Type"`
			Code    string `xml:"Code"`
			Message string `xml:"Message"`
		} `xml:"Error"`
		RequestID string `xml:"RequestId"`
	}{RequestID: requestID}
	body.Error.Type, body.Error.Code, body.Error.Message = kind, code, message
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(xml.Header))
	_ = xml.NewEncoder(w).Encode(body)
}

// WriteJSONError writes an error in the REST/JSON shape.
func WriteJSONError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-ErrorType", code)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": code, "message": message})
}

// WriteErrorWithID is WriteError with the request id given (the XML
// RequestId, or the X-Amzn-RequestId header), a new one when empty.
func WriteErrorWithID(w http.ResponseWriter, p Protocol, status int, code, message, requestID string) {
	if requestID == "" {
		requestID = RequestID()
	}
	if p == Query {
		writeQueryError(w, status, code, message, requestID)
		return
	}
	w.Header().Set("X-Amzn-RequestId", requestID)
	WriteJSONError(w, status, code, message)
}

// WriteJSON writes a 200 JSON answer.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// WriteError writes an error in a protocol's shape.
func WriteError(w http.ResponseWriter, p Protocol, status int, code, message string) {
	if p == Query {
		WriteQueryError(w, status, code, message)
		return
	}
	WriteJSONError(w, status, code, message)
}

// Errors the emulator itself produces (auth, faults), per protocol.
var (
	codes = map[Protocol]map[string]string{
		Query: {
			"missing":    "MissingAuthenticationToken",
			"unknown":    "InvalidClientTokenId",
			"signature":  "SignatureDoesNotMatch",
			"expired":    "ExpiredToken",
			"malformed":  "IncompleteSignature",
			"throttle":   "Throttling",
			"internal":   "ServiceFailure",
			"validation": "InvalidInput",
		},
		JSON: {
			"missing":    "MissingAuthenticationTokenException",
			"unknown":    "UnrecognizedClientException",
			"signature":  "InvalidSignatureException",
			"expired":    "ExpiredTokenException",
			"malformed":  "IncompleteSignatureException",
			"throttle":   "ThrottlingException",
			"internal":   "InternalException",
			"validation": "ValidationException",
		},
	}
)

// Code returns a protocol's error code for one of the emulator's own
// conditions: missing, unknown, signature, expired, malformed, throttle,
// internal, validation.
func Code(p Protocol, condition string) string { return codes[p][condition] }
