package diagnostics

import (
	"errors"
	"net"

	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// TokenServiceRemedy says what a failed credential check means: the remedy
// for err, its placeholders filled from fields (see Remedies.For and
// tokenServiceRemedies).
func TokenServiceRemedy(err error, fields ...string) Remedy {
	return tokenServiceRemedies.For(err, fields...)
}

// tokenServiceRemedies say what a failed credential check means. Their
// placeholders: {host}, {endpoint} and {from} (the token service's
// endpoint and the setting it came from), {key} (the access key named),
// {source} (where the credentials came from) and {role} (the role assumed).
var tokenServiceRemedies = Remedies{
	ByKind: []Remedy{
		{Match: unreachable, Summary: "Token Service Unreachable", Text: "The provider cannot reach the token service at {host} ({endpoint}, from {from}) to check its credentials. Set endpoints.sts in the provider block, or CLOUD_ENDPOINT_URL for every service, to a URL this machine can reach (the local emulator's is such as http://127.0.0.1:8080), or check the network. Set skip_credentials_validation = true only if the token service is unreachable on purpose."},
		{Match: notAnswered, Summary: "Unable to Get Credentials", Text: "The provider could not get credentials from {source}."},
		{Codes: []string{"SignatureDoesNotMatch"}, Summary: "Invalid Credentials", Text: "The token service refused the signature of {key} (from {source}): the secret key does not belong to this access key. Check the secret key (secret_key, CLOUD_SECRET_ACCESS_KEY or the profile's aws_secret_access_key)."},
		{Codes: []string{"InvalidClientTokenId"}, Summary: "Invalid Credentials", Text: "The token service does not know {key} (from {source}), or its session token. Check the access key id, and the session token of temporary credentials."},
		{Codes: []string{"ExpiredToken"}, Summary: "Expired Credentials", Text: "The session token of the credentials from {source} has expired. Get new temporary credentials (or let assume_role get them) and run again."},
		{Codes: []string{"ExpiredTokenException"}, Summary: "Web Identity Token Refused", Text: "The token service refused the web identity token for role {role} (from {source}) because it has expired. CI systems issue a fresh token per job: request a new one."},
		{Codes: []string{"InvalidIdentityToken", "IDPRejectedClaim"}, Summary: "Web Identity Token Refused", Text: "The token service refused the web identity token for role {role} (from {source}): {message}. Check that the token's issuer is registered with the identity service, that its audience is one the provider was registered with, and that the role's trust policy accepts its subject."},
		{Codes: []string{"AccessDenied"}, Summary: "Role Refused", Text: "The token service refused to let the credentials from {source} assume role {role}: {message}. Check the role's trust policy and, when it requires one, assume_role.external_id."},
	},
	Otherwise: Remedy{Summary: "Unable to Check Credentials", Text: "The token service refused the credentials from {source} ({code})."},
}

// unreachable: the request never reached the token service.
func unreachable(err error) bool {
	var send *smithyhttp.RequestSendError
	var dns *net.DNSError
	return errors.As(err, &send) || errors.As(err, &dns)
}

// notAnswered: the token service gave no answer of its own (getting the
// credentials failed before any request, such as a token file unread).
func notAnswered(err error) bool {
	var api smithy.APIError
	return !errors.As(err, &api)
}
