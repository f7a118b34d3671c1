package client

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// decodedView is an answer as a reader of one escaping scheme sees it:
// text holds the decoded bytes and off[i] the offset in the answer of the
// character that decoded byte i came from (off[len(text)] is the answer's
// length), so that a secret found in text is replaced in the answer.
type decodedView struct {
	text []byte
	off  []int
}

// raw maps the decoded stretch [from, to) to the answer's.
func (v decodedView) raw(from, to int) (int, int) { return v.off[from], v.off[to] }

// unescaper decodes the escape at b[i], if one starts there, appending its
// bytes to out; n is how many bytes of b it took (0: none starts at i).
type unescaper func(out, b []byte, i int) ([]byte, int)

// unescapers are the escaping schemes in which a service may quote a
// secret, each as its readers decode it; an answer is searched in each,
// so that a secret's characters escaped any way the scheme allows are
// found (JSON's \" or \u00fc, XML's &quot; or &#34; beside a raw ", a
// form's %2f or %2F and +). Marks is the bytes that begin an escape.
var unescapers = []struct {
	marks string
	fn    unescaper
}{
	{`\`, unescapeJSON},
	{`&`, unescapeXML},
	{`%+`, unescapeForm},
}

// decode returns b as fn decodes it, and false when b has none of marks
// (the view would be b itself).
func decode(b []byte, marks string, fn unescaper) (decodedView, bool) {
	if !bytes.ContainsAny(b, marks) {
		return decodedView{}, false
	}
	v := decodedView{text: make([]byte, 0, len(b)), off: make([]int, 0, len(b)+1)}
	for i := 0; i < len(b); {
		before := len(v.text)
		var n int
		v.text, n = fn(v.text, b, i)
		if n == 0 {
			v.text, n = append(v.text, b[i]), 1
		}
		for range len(v.text) - before {
			v.off = append(v.off, i)
		}
		i += n
	}
	v.off = append(v.off, len(b))
	return v, true
}

// hexValue is four hexadecimal digits' value, a UTF-16 code unit.
func hexValue(b []byte) (rune, bool) {
	n, err := strconv.ParseUint(string(b), 16, 16)
	return rune(n), err == nil
}

var jsonEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unescapeJSON decodes a JSON string escape: \" \\ \/ \b \f \n \r \t and
// \uXXXX, a surrogate pair joined into one character.
func unescapeJSON(out, b []byte, i int) ([]byte, int) {
	if b[i] != '\\' || i+1 >= len(b) {
		return out, 0
	}
	if c, ok := jsonEscapes[b[i+1]]; ok {
		return append(out, c), 2
	}
	if b[i+1] != 'u' || i+6 > len(b) {
		return out, 0
	}
	r, ok := hexValue(b[i+2 : i+6])
	if !ok {
		return out, 0
	}
	if utf16.IsSurrogate(r) && i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
		if r2, ok := hexValue(b[i+8 : i+12]); ok {
			if joined := utf16.DecodeRune(r, r2); joined != utf8.RuneError {
				return utf8.AppendRune(out, joined), 12
			}
		}
	}
	return utf8.AppendRune(out, r), 6
}

// xmlEntities are XML's named entities (HTML's &#39; and others are
// numeric, decoded below).
var xmlEntities = map[string]byte{"quot": '"', "amp": '&', "lt": '<', "gt": '>', "apos": '\''}

// unescapeXML decodes an XML entity: named, &#NN; or &#xHH;.
func unescapeXML(out, b []byte, i int) ([]byte, int) {
	if b[i] != '&' {
		return out, 0
	}
	end := bytes.IndexByte(b[i:min(len(b), i+12)], ';')
	if end < 2 {
		return out, 0
	}
	name := string(b[i+1 : i+end])
	if c, ok := xmlEntities[name]; ok {
		return append(out, c), end + 1
	}
	if name[0] != '#' || len(name) < 2 {
		return out, 0
	}
	var n uint64
	var err error
	if name[1] == 'x' || name[1] == 'X' {
		n, err = strconv.ParseUint(name[2:], 16, 32)
	} else {
		n, err = strconv.ParseUint(name[1:], 10, 32)
	}
	if err != nil || n > utf8.MaxRune {
		return out, 0
	}
	return utf8.AppendRune(out, rune(n)), end + 1
}

// unescapeForm decodes a form's %XX (either case) and its + for a space.
func unescapeForm(out, b []byte, i int) ([]byte, int) {
	switch {
	case b[i] == '+':
		return append(out, ' '), 1
	case b[i] == '%' && i+3 <= len(b):
		if c, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8); err == nil {
			return append(out, byte(c)), 3
		}
	}
	return out, 0
}
