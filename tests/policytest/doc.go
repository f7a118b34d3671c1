// Package policytest evaluates the policy of examples/policy/plan.rego
// against real plans: plans the provider makes against the emulator through
// the Terraform CLI, turned into JSON by `terraform show -json`.
package policytest
