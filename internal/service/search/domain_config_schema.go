package search

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	searchclient "github.com/cloudlabs/terraform-provider-cloud/internal/client/search"
	"github.com/cloudlabs/terraform-provider-cloud/internal/planmodifiers"
	"github.com/cloudlabs/terraform-provider-cloud/internal/validators"
)

// Every configuration field is Optional and Computed with the state's value
// kept when the configuration leaves it out: the resource manages what the
// configuration sets, and a server-side default inside a set section never
// shows up as a difference.

func optString(desc string, v ...validator.String) schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true, Computed: true, MarkdownDescription: desc, Validators: v,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

func optBool(desc string) schema.BoolAttribute {
	return schema.BoolAttribute{
		Optional: true, Computed: true, MarkdownDescription: desc,
		PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
	}
}

func optInt(desc string, v ...validator.Int64) schema.Int64Attribute {
	return schema.Int64Attribute{
		Optional: true, Computed: true, MarkdownDescription: desc, Validators: v,
		PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
	}
}

func optStringSet(desc string, v ...validator.Set) schema.SetAttribute {
	return schema.SetAttribute{
		ElementType: types.StringType, Optional: true, Computed: true, MarkdownDescription: desc, Validators: v,
		PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
	}
}

func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed: true, MarkdownDescription: desc,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

func section(desc string, attrs map[string]schema.Attribute, v ...validator.Object) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true, Computed: true, MarkdownDescription: desc, Attributes: attrs, Validators: v,
		PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
	}
}

func enabledSection(desc string) schema.SingleNestedAttribute {
	return section(desc, map[string]schema.Attribute{"enabled": optBool("Whether it is enabled.")})
}

var (
	rfc3339Re     = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	arnRe         = regexp.MustCompile(`^arn:[a-z-]+:[a-z0-9-]+:[a-z0-9-]*:\d{0,12}:.+$`)
	warningCodeRe = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`)
)

func rfc3339() validator.String {
	return stringvalidator.RegexMatches(rfc3339Re, "must be a UTC time in RFC 3339 form such as 2026-01-02T03:04:05Z")
}

func arn() validator.String {
	return stringvalidator.RegexMatches(arnRe, "must be an ARN such as arn:cloud:identity::123456789012:role/name")
}

// logTypes are the spec's LogPublishingOptions keys.
var logTypes = []string{"INDEX_SLOW_LOGS", "SEARCH_SLOW_LOGS", "ES_APPLICATION_LOGS", "AUDIT_LOGS"}

// dryRunAttrTypes is the shape of the computed dry_run object.
var (
	failureAttrTypes = map[string]attr.Type{"code": types.StringType, "message": types.StringType, "severity": types.StringType}
	dryRunAttrTypes  = map[string]attr.Type{
		"id": types.StringType, "status": types.StringType, "deployment_type": types.StringType, "message": types.StringType,
		"validation_failures": types.ListType{ElemType: types.ObjectType{AttrTypes: failureAttrTypes}},
	}
)

func domainConfigSchema(ctx context.Context) schema.Schema {
	return schema.Schema{
		MarkdownDescription: "The configuration of an existing search domain. `terraform plan` runs a Verbose dry run of every change and shows its deployment type (dynamic or blue/green) and every validation failure before anyone approves; `terraform apply` applies the change and follows the service's change progress to the end. Only the sections the configuration sets are managed. Destroying this resource stops managing the configuration and changes nothing on the domain.",
		Attributes: map[string]schema.Attribute{
			"id": computedString("The domain name."),
			"domain_name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Name of the existing domain: 3 to 28 characters, a lower-case letter followed by lower-case letters, digits and hyphens. Changing it manages another domain.",
				Validators: []validator.String{
					stringvalidator.LengthBetween(3, 28),
					stringvalidator.RegexMatches(searchclient.DomainNameRegexp, "must start with a lower-case letter and hold only lower-case letters, digits and hyphens"),
				},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"access_policies": schema.StringAttribute{
				CustomType:          jsontypes.NormalizedType{},
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "The domain's access policy, a JSON policy document of at most 102400 characters. Compared by meaning, not by text.",
				Validators:          []validator.String{stringvalidator.LengthAtMost(102400)},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"advanced_options": schema.MapAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Advanced cluster settings; values are strings. Supported keys: `rest.action.multi.allow_explicit_index` (`true` or `false`, default `true`), `indices.fielddata.cache.size` (percentage of heap, such as `40` or `40%`; unbounded by default), `indices.query.bool.max_clause_count` (a number, default `1024`). Only the keys the configuration sets are compared.",
				Validators: []validator.Map{
					mapvalidator.KeysAre(stringvalidator.OneOf("rest.action.multi.allow_explicit_index", "indices.fielddata.cache.size", "indices.query.bool.max_clause_count")),
					validators.AdvancedOptionValues(),
				},
				PlanModifiers: []planmodifier.Map{mapplanmodifier.UseStateForUnknown(), planmodifiers.KeepUnsetMapKeys()},
			},
			"advanced_security_options": section("Fine-grained access control.", map[string]schema.Attribute{
				"anonymous_auth_disable_date":    computedString("When anonymous access is to be turned off (RFC 3339)."),
				"anonymous_auth_enabled":         optBool("Whether anonymous access is allowed during the migration to fine-grained access control."),
				"enabled":                        optBool("Whether fine-grained access control is enabled."),
				"internal_user_database_enabled": optBool("Whether the internal user database is enabled."),
				"identity_federation_options": section("Identity federation sign-in.", map[string]schema.Attribute{
					"enabled":     optBool("Whether identity federation is enabled."),
					"roles_key":   optString("Claim that holds the roles."),
					"subject_key": optString("Claim that holds the subject."),
				}),
				"jwt_options": section("JSON Web Token sign-in.", map[string]schema.Attribute{
					"enabled":     optBool("Whether JWT sign-in is enabled."),
					"jwks_url":    optString("URL of the JSON Web Key Set.", stringvalidator.RegexMatches(regexp.MustCompile(`^https://`), "must be an https URL")),
					"public_key":  optString("Public key that verifies tokens."),
					"roles_key":   optString("Claim that holds the roles."),
					"subject_key": optString("Claim that holds the subject."),
				}),
				"master_user_options": section("The master user. The service never returns these values, so they are kept as configured. Prefer `master_user_password_wo` for the password.", map[string]schema.Attribute{
					"master_user_arn":  optString("ARN of the master user (instead of a name and password).", arn()),
					"master_user_name": optString("Name of the master user in the internal user database.", stringvalidator.LengthBetween(1, 64)),
					"master_user_password": schema.StringAttribute{
						Optional: true, Computed: true, Sensitive: true,
						MarkdownDescription: "Password of the master user: 8 to 128 characters. Stored in state (Sensitive); use `master_user_password_wo` to keep it out of state.",
						Validators:          []validator.String{stringvalidator.LengthBetween(8, 128)},
						PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
					},
				}),
				"saml_options": section("SAML sign-in for the dashboard.", map[string]schema.Attribute{
					"enabled": optBool("Whether SAML sign-in is enabled."),
					"idp": section("The SAML identity provider.", map[string]schema.Attribute{
						"entity_id":        optString("Entity id of the identity provider.", stringvalidator.LengthBetween(8, 512)),
						"metadata_content": optString("Metadata XML of the identity provider.", stringvalidator.LengthBetween(1, 1048576)),
					}),
					"master_backend_role":     optString("Backend role of the SAML master user (not returned by the service; kept as configured)."),
					"master_user_name":        optString("SAML master user name (not returned by the service; kept as configured)."),
					"roles_key":               optString("SAML attribute that holds the roles."),
					"session_timeout_minutes": optInt("Session duration in minutes, 1 to 1440.", int64validator.Between(1, 1440)),
					"subject_key":             optString("SAML attribute that holds the subject."),
				}),
			}),
			"aiml_options": section("Machine learning features.", map[string]schema.Attribute{
				"natural_language_query_generation_options": section("Natural language query generation.", map[string]schema.Attribute{
					"desired_state": optString("`ENABLED` or `DISABLED`.", stringvalidator.OneOf("ENABLED", "DISABLED")),
					"current_state": computedString("The feature's current state."),
				}),
				"object_store_vectors_engine":    enabledSection("The object-store vector engine."),
				"serverless_vector_acceleration": enabledSection("Serverless vector acceleration."),
			}),
			"automated_snapshot_pause_options": section("Suspends automated snapshots for at most 3 days; while they are suspended the domain cannot be restored to points in that span.", map[string]schema.Attribute{
				"enabled":    optBool("Whether automated snapshots are suspended."),
				"start_time": optString("Start of the suspension (RFC 3339).", rfc3339()),
				"end_time":   optString("End of the suspension (RFC 3339), at most 3 days after `start_time`.", rfc3339()),
				"state":      computedString("The suspension's state."),
			}, validators.SnapshotPauseWindow()),
			"auto_tune_options": section("Auto-Tune.", map[string]schema.Attribute{
				"desired_state": optString("`ENABLED` or `DISABLED`.", stringvalidator.OneOf("ENABLED", "DISABLED")),
				"maintenance_schedules": schema.ListNestedAttribute{
					Optional: true, Computed: true,
					MarkdownDescription: "Maintenance windows.",
					PlanModifiers:       []planmodifier.List{listplanmodifier.UseStateForUnknown()},
					NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
						"cron_expression_for_recurrence": optString("Cron expression of the recurrence."),
						"duration": section("Length of the window.", map[string]schema.Attribute{
							"unit":  optString("`HOURS`.", stringvalidator.OneOf("HOURS")),
							"value": optInt("Number of units, 1 to 24.", int64validator.Between(1, 24)),
						}),
						"start_at": optString("First window (RFC 3339).", rfc3339()),
					}},
				},
				"rollback_on_disable": optString("`NO_ROLLBACK` or `DEFAULT_ROLLBACK`.", stringvalidator.OneOf("NO_ROLLBACK", "DEFAULT_ROLLBACK")),
				"use_off_peak_window": optBool("Whether Auto-Tune changes wait for the off-peak window."),
			}),
			"cluster_config": section("Nodes and zones. Changing the instance type or count, dedicated masters, warm or cold storage, or zones is a blue/green deployment.", map[string]schema.Attribute{
				"cold_storage_options":          enabledSection("Cold storage."),
				"dedicated_master_count":        optInt("Number of dedicated master nodes (3 or 5 in practice).", int64validator.Between(1, 5)),
				"dedicated_master_enabled":      optBool("Whether dedicated master nodes are used."),
				"dedicated_master_type":         optString("Instance type of the dedicated master nodes.", stringvalidator.LengthAtLeast(1)),
				"instance_count":                optInt("Number of data nodes; a multiple of the zone count when zone awareness is on.", int64validator.Between(1, 1002)),
				"instance_type":                 optString("Instance type of the data nodes.", stringvalidator.LengthAtLeast(1)),
				"multi_az_with_standby_enabled": optBool("Whether a standby zone is kept."),
				"node_options": schema.ListNestedAttribute{
					Optional: true, Computed: true,
					MarkdownDescription: "Options of other node types.",
					PlanModifiers:       []planmodifier.List{listplanmodifier.UseStateForUnknown()},
					Validators:          []validator.List{listvalidator.SizeAtMost(10)},
					NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
						"node_type": optString("The node type, such as `coordinator`.", stringvalidator.LengthAtLeast(1)),
						"node_config": section("Its configuration.", map[string]schema.Attribute{
							"count":   optInt("Number of nodes.", int64validator.AtLeast(0)),
							"enabled": optBool("Whether the nodes are used."),
							"type":    optString("Instance type.", stringvalidator.LengthAtLeast(1)),
						}),
					}},
				},
				"warm_count":   optInt("Number of warm nodes.", int64validator.Between(2, 150)),
				"warm_enabled": optBool("Whether warm storage is used."),
				"warm_type":    optString("Instance type of the warm nodes.", stringvalidator.LengthAtLeast(1)),
				"zone_awareness_config": section("Zones.", map[string]schema.Attribute{
					"availability_zone_count": optInt("Number of availability zones: 2 or 3.", int64validator.OneOf(2, 3)),
				}),
				"zone_awareness_enabled": optBool("Whether nodes are spread across zones."),
			}),
			"user_pool_auth_options": section("User-pool sign-in for the domain's dashboard interface.", map[string]schema.Attribute{
				"enabled":          optBool("Whether user-pool sign-in is enabled."),
				"identity_pool_id": optString("Identity pool id."),
				"role_arn":         optString("Role the service assumes to configure the user pool.", arn()),
				"user_pool_id":     optString("User pool id."),
			}),
			"deployment_strategy_options": section("How changes are deployed.", map[string]schema.Attribute{
				"deployment_strategy": optString("The deployment strategy, such as `Default` or `CapacityOptimized`.", stringvalidator.LengthAtLeast(1)),
			}),
			"domain_endpoint_options": section("HTTPS, TLS and the custom endpoint.", map[string]schema.Attribute{
				"custom_endpoint":                 optString("Custom host name of the endpoint.", stringvalidator.LengthBetween(1, 255)),
				"custom_endpoint_certificate_arn": optString("Certificate of the custom endpoint.", arn()),
				"custom_endpoint_enabled":         optBool("Whether the custom endpoint is used."),
				"enforce_https":                   optBool("Whether only HTTPS is accepted."),
				"tls_security_policy":             optString("TLS security policy name.", stringvalidator.LengthAtLeast(1)),
			}),
			"block_volume_options": section("Block storage of the data nodes. Changing it is a blue/green deployment.", map[string]schema.Attribute{
				"block_volume_enabled": optBool("Whether block volumes are attached."),
				"iops":                 optInt("Provisioned IOPS.", int64validator.AtLeast(0)),
				"throughput":           optInt("Provisioned throughput in MiB/s.", int64validator.AtLeast(0)),
				"volume_size":          optInt("Volume size in GiB.", int64validator.AtLeast(1)),
				"volume_type":          optString("Volume type, such as `gp3`.", stringvalidator.LengthAtLeast(1)),
			}),
			"encryption_at_rest_options": section("Encryption of data at rest. Once enabled it cannot be turned off.", map[string]schema.Attribute{
				"enabled":    optBool("Whether data at rest is encrypted."),
				"kms_key_id": optString("Key that encrypts the data."),
			}),
			"engine_mode": optString("`GENERAL` or `OPTIMIZED`. Cannot be changed after the domain is created: a different value fails the plan.",
				stringvalidator.OneOf("GENERAL", "OPTIMIZED")),
			"engine_version": computedString("The domain's engine version."),
			"workforce_identity_options": section("Directory-center access.", map[string]schema.Attribute{
				"enabled_api_access":                 optBool("Whether API access through the directory center is enabled."),
				"workforce_identity_instance_arn":    optString("ARN of the directory-center instance.", arn()),
				"workforce_identity_instance_region": optString("Region of the directory-center instance."),
				"roles_key":                          optString("Attribute that holds the roles."),
				"subject_key":                        optString("Attribute that holds the subject."),
				"workforce_identity_application_arn": computedString("ARN of the application the service created."),
				"identity_store_id":                  computedString("Id of the identity store."),
			}),
			"ip_address_type": optString("`ipv4` or `dualstack` (recommended). A domain set to `dualstack` cannot go back: `ipv4` then fails the plan.",
				stringvalidator.OneOf("ipv4", "dualstack")),
			"log_publishing_options": schema.MapNestedAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Log publishing, keyed by log type: `INDEX_SLOW_LOGS`, `SEARCH_SLOW_LOGS`, `ES_APPLICATION_LOGS`, `AUDIT_LOGS`.",
				Validators:          []validator.Map{mapvalidator.KeysAre(stringvalidator.OneOf(logTypes...))},
				PlanModifiers:       []planmodifier.Map{mapplanmodifier.UseStateForUnknown()},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"logs_log_group_arn": optString("ARN of the log group that receives the logs.", arn()),
					"enabled":            optBool("Whether the logs are published."),
				}},
			},
			"node_to_node_encryption_options": enabledSection("Encryption of traffic between nodes. Once enabled it cannot be turned off."),
			"off_peak_window_options": section("The daily off-peak window in which blue/green changes are expected.", map[string]schema.Attribute{
				"enabled": optBool("Whether the off-peak window is used."),
				"off_peak_window": section("The window.", map[string]schema.Attribute{
					"window_start_time": section("Start of the window (UTC).", map[string]schema.Attribute{
						"hours":   optInt("Hour, 0 to 23.", int64validator.Between(0, 23)),
						"minutes": optInt("Minute, 0 to 59.", int64validator.Between(0, 59)),
					}),
				}),
			}),
			"snapshot_options": section("Automated snapshots.", map[string]schema.Attribute{
				"automated_snapshot_start_hour": optInt("Hour (UTC, 0 to 23) of the daily automated snapshot; the service's default is 0.", int64validator.Between(0, 23)),
			}),
			"software_update_options": section("Service software updates.", map[string]schema.Attribute{
				"auto_software_update_enabled":               optBool("Whether service software updates are applied automatically."),
				"use_latest_service_software_for_blue_green": optBool("Whether a blue/green deployment also moves to the latest service software."),
			}),
			"use_case": optString("`SEARCH`, `VECTOR`, `OBSERVABILITY` or `MIXED`.", stringvalidator.OneOf("SEARCH", "VECTOR", "OBSERVABILITY", "MIXED")),
			"vpc_options": section("Network placement. Changing it is a blue/green deployment.", map[string]schema.Attribute{
				"egress_enabled":     optBool("Whether outbound traffic is allowed."),
				"security_group_ids": optStringSet("Security groups.", setvalidator.SizeAtMost(5)),
				"subnet_ids":         optStringSet("Subnets, one per zone.", setvalidator.SizeAtMost(6)),
				"availability_zones": schema.SetAttribute{
					ElementType: types.StringType, Computed: true, MarkdownDescription: "Zones of the subnets.",
					PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
				},
				"vpc_id": computedString("The network the domain is in."),
			}),
			"master_user_password_wo": schema.StringAttribute{
				Optional:            true,
				WriteOnly:           true,
				Sensitive:           true,
				MarkdownDescription: "Write-only master user password (8 to 128 characters), never stored in state or plan. Sent with `advanced_security_options.master_user_options` when `master_user_password_wo_version` changes. Needs Terraform 1.11 or later.",
				Validators: []validator.String{
					stringvalidator.LengthBetween(8, 128),
					stringvalidator.AlsoRequires(path.MatchRoot("master_user_password_wo_version")),
					stringvalidator.ConflictsWith(path.MatchRoot("advanced_security_options").AtName("master_user_options").AtName("master_user_password")),
				},
			},
			"master_user_password_wo_version": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: "Change this number to send `master_user_password_wo` again.",
				Validators:          []validator.Int64{int64validator.AlsoRequires(path.MatchRoot("master_user_password_wo"))},
			},
			"accepted_warnings": schema.SetAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Codes of Advisory validation warnings to accept (at most 25). An Advisory warning whose code is not listed fails the plan; Critical failures cannot be accepted.",
				Validators:          []validator.Set{setvalidator.SizeAtMost(25), setvalidator.ValueStringsAre(stringvalidator.RegexMatches(warningCodeRe, "must be a validation code such as ADV_NO_DEDICATED_MASTERS"))},
			},
			"allow_blue_green": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				MarkdownDescription: "Whether a change may cause a blue/green deployment. When `false`, a plan whose dry run says blue/green fails. Defaults to `true` (the plan warns).",
			},
			"dry_run_mode": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("Verbose"),
				MarkdownDescription: "The plan-time dry run: `Verbose` (deployment type and validation, the default), `Basic` (deployment type only) or `Off` (no dry run).",
				Validators:          []validator.String{stringvalidator.OneOf("Verbose", "Basic", "Off")},
			},
			"wait_for_completion": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				MarkdownDescription: "Whether apply waits until the change completes (following DescribeDomainChangeProgress). Defaults to `true`.",
			},
			"dry_run": schema.SingleNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The plan-time dry run of the planned change: what the service says the change will do. Known at plan time (except `id`), so `terraform show -json` of a saved plan carries it for review.",
				Attributes: map[string]schema.Attribute{
					"id":              schema.StringAttribute{Computed: true, MarkdownDescription: "Id of the dry run (named in the plan's warning; known after apply)."},
					"status":          schema.StringAttribute{Computed: true, MarkdownDescription: "`completed` or `failed`."},
					"deployment_type": schema.StringAttribute{Computed: true, MarkdownDescription: "`dynamic`, `blue/green` or `none`; an unknown value is reported as it is."},
					"message":         schema.StringAttribute{Computed: true, MarkdownDescription: "The service's summary of the dry run."},
					"validation_failures": schema.ListNestedAttribute{
						Computed:            true,
						MarkdownDescription: "Validation failures of a Verbose dry run, sorted by code.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"code":     schema.StringAttribute{Computed: true, MarkdownDescription: "Stable code of the failure."},
							"message":  schema.StringAttribute{Computed: true, MarkdownDescription: "What the service says."},
							"severity": schema.StringAttribute{Computed: true, MarkdownDescription: "`Advisory` (accept with `accepted_warnings`) or `Critical` (blocks)."},
						}},
					},
				},
			},
			"change_id": computedString("Id of the last change applied (36 characters)."),
			"config_change_status": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Status of the last change as the service reports it, such as `Completed` or `ApplyingChanges` while it runs.",
			},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true}),
		},
	}
}
