package seed

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/cloudlabs/terraform-provider-cloud/internal/emulator"
)

// faultIn is a fault as a seed file or -fault gives it: the admin API's
// fault (internal/emulator/README.md, Faults) without what the emulator
// counts (hits, quoted).
type faultIn struct {
	Kind           string `json:"kind"`
	Service        string `json:"service"`
	Operation      string `json:"operation"`
	Status         int    `json:"status"`
	Code           string `json:"code"`
	Delay          string `json:"delay"`
	DryRun         string `json:"dry_run"`
	Times          int    `json:"times"`
	Field          string `json:"field"`
	Chars          int    `json:"chars"`
	Offset         int    `json:"offset"`
	Where          string `json:"where"`
	Domain         string `json:"domain"`
	DeploymentType string `json:"deployment_type"`
	Severity       string `json:"severity"`
	Message        string `json:"message"`
}

func (in faultIn) fault() emulator.Fault {
	return emulator.Fault{
		Kind: emulator.FaultKind(in.Kind), Service: in.Service, Operation: in.Operation, Status: in.Status,
		Code: in.Code, DelayText: in.Delay, DryRun: in.DryRun, Times: in.Times, Field: in.Field,
		Chars: in.Chars, Offset: in.Offset, Where: in.Where, Domain: in.Domain,
		DeploymentType: in.DeploymentType, Severity: in.Severity, Message: in.Message,
	}
}

// decodeFault decodes one fault of a seed file.
func decodeFault(raw json.RawMessage, at string) (emulator.Fault, error) {
	var in faultIn
	if err := decode(raw, at, &in); err != nil {
		return emulator.Fault{}, err
	}
	if in.Kind == "" {
		return emulator.Fault{}, &Error{Path: join(at, "kind"), Message: "required: error, throttle, drop, delay, lost_response, echo, verdict or validation_failure"}
	}
	return in.fault(), nil
}

// ParseFault reads a -fault flag: a fault's JSON object, or its compact
// form, comma-separated name=value pairs of the same names, such as
// kind=throttle,operation=CreateUser,times=2. In the compact form a value
// holds no comma, except message, which takes the rest of the flag (so
// put it last). at names the flag in errors. The fault is checked when it
// is injected (emulator.InjectFault).
func ParseFault(spec, at string) (emulator.Fault, error) {
	if strings.HasPrefix(strings.TrimSpace(spec), "{") {
		return decodeFault(json.RawMessage(spec), at)
	}
	obj := map[string]any{}
	rest := spec
	for rest != "" {
		var pair string
		if strings.HasPrefix(rest, "message=") {
			pair, rest = rest, ""
		} else {
			pair, rest, _ = strings.Cut(rest, ",")
		}
		name, value, ok := strings.Cut(pair, "=")
		if !ok || name == "" {
			return emulator.Fault{}, &Error{Path: at, Message: fmt.Sprintf("%q is not name=value", pair)}
		}
		if _, dup := obj[name]; dup {
			return emulator.Fault{}, &Error{Path: join(at, name), Message: "given twice"}
		}
		switch name {
		case "status", "times", "chars", "offset":
			n, err := strconv.Atoi(value)
			if err != nil {
				return emulator.Fault{}, &Error{Path: join(at, name), Message: fmt.Sprintf("expected a whole number, not %q", value)}
			}
			obj[name] = n
		default:
			obj[name] = value
		}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return emulator.Fault{}, &Error{Path: at, Message: err.Error()}
	}
	return decodeFault(b, at)
}
