package search

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
)

type dsAttrs = map[string]schema.Attribute

// plannedDomainSchema is the schema of dry_run_config: the domain as the
// dry-run change would leave it. Section names match cloud_search_domain_config.
func plannedDomainSchema() schema.SingleNestedAttribute {
	return dsObject("The domain as the change would leave it (the service's `DryRunConfig`), set when `load_dry_run_config` is `true`, otherwise null. Sections use the names and nesting of `cloud_search_domain_config`. A field the service does not return is null.", dsAttrs{
		"arn":                               dsString("ARN of the domain."),
		"created":                           dsBool("Whether the domain has been created."),
		"deleted":                           dsBool("Whether the domain is being deleted."),
		"domain_endpoint_v2_hosted_zone_id": dsString("Hosted zone id of the dual-stack endpoint."),
		"domain_id":                         dsString("Unique id of the domain."),
		"domain_name":                       dsString("Name of the domain."),
		"domain_processing_status":          dsString("Processing status of the domain, such as `Active` or `Modifying`."),
		"endpoint":                          dsString("Endpoint for search and index requests."),
		"endpoint_v2":                       dsString("Dual-stack endpoint for search and index requests."),
		"endpoints":                         dsStringMap("Endpoints of a domain in a VPC, by kind."),
		"engine_mode":                       dsString("Engine mode, `GENERAL` or `OPTIMIZED`."),
		"engine_version":                    dsString("Engine version, such as `OpenSearch_2.19`."),
		"processing":                        dsBool("Whether a configuration change is in progress."),
		"upgrade_processing":                dsBool("Whether an engine upgrade is in progress."),
		"service_software_options": dsObject("The domain's service software.", dsAttrs{
			"automated_update_date": dsString("When the service software is updated automatically (RFC 3339)."),
			"cancellable":           dsBool("Whether a pending update can be cancelled."),
			"current_version":       dsString("Current service software version."),
			"description":           dsString("Description of the update status."),
			"new_version":           dsString("Version of an available update."),
			"optional_deployment":   dsBool("Whether the update is optional."),
			"update_available":      dsBool("Whether an update is available."),
			"update_status":         dsString("Status of the update."),
		}),
		"change_progress_details": dsObject("Summary of the domain's current change.", dsAttrs{
			"change_id":            dsString("Id of the change."),
			"config_change_status": dsString("Configuration change status, such as `ApplyingChanges`."),
			"initiated_by":         dsString("Who started the change."),
			"last_updated_time":    dsString("When the change was last updated (RFC 3339)."),
			"message":              dsString("Message about the change."),
			"start_time":           dsString("When the change started (RFC 3339)."),
		}),
		"modifying_properties": dsObjectList("Properties a running change is modifying.", dsAttrs{
			"active_value":  dsString("Value in effect now."),
			"name":          dsString("Property name, such as `ClusterConfig.InstanceType`."),
			"pending_value": dsString("Value once the change completes."),
			"value_type":    dsString("`PLAIN_TEXT` or `STRINGIFIED_JSON`."),
		}),

		"access_policies":                  dsString("Access policy document (JSON)."),
		"advanced_options":                 dsStringMap("Advanced options; values are strings."),
		"advanced_security_options":        plannedAdvancedSecuritySchema(),
		"aiml_options":                     plannedAIMLSchema(),
		"automated_snapshot_pause_options": plannedSnapshotPauseSchema(),
		"auto_tune_options": dsObject("Auto-Tune as the domain status reports it.", dsAttrs{
			"error_message":       dsString("Auto-Tune error, if any."),
			"state":               dsString("Auto-Tune state."),
			"use_off_peak_window": dsBool("Whether Auto-Tune uses the off-peak window."),
		}),
		"cluster_config": plannedClusterConfigSchema(),
		"user_pool_auth_options": dsObject("User-pool sign-in for the dashboard interface.", dsAttrs{
			"enabled":          dsBool("Whether user-pool sign-in is on."),
			"identity_pool_id": dsString("Identity pool id."),
			"role_arn":         dsString("ARN of the role the service uses."),
			"user_pool_id":     dsString("User pool id."),
		}),
		"deployment_strategy_options": dsObject("How changes are deployed.", dsAttrs{
			"deployment_strategy": dsString("Deployment strategy."),
		}),
		"domain_endpoint_options": dsObject("HTTPS, TLS and the custom endpoint.", dsAttrs{
			"custom_endpoint":                 dsString("Custom endpoint host name."),
			"custom_endpoint_certificate_arn": dsString("ARN of the custom endpoint's certificate."),
			"custom_endpoint_enabled":         dsBool("Whether the custom endpoint is on."),
			"enforce_https":                   dsBool("Whether HTTPS is required."),
			"tls_security_policy":             dsString("TLS security policy."),
		}),
		"block_volume_options": dsObject("Block storage of the data nodes.", dsAttrs{
			"block_volume_enabled": dsBool("Whether block volumes are attached."),
			"iops":                 dsInt64("Provisioned IOPS."),
			"throughput":           dsInt64("Provisioned throughput (MiB/s)."),
			"volume_size":          dsInt64("Volume size per node (GiB)."),
			"volume_type":          dsString("Volume type, such as `gp3`."),
		}),
		"encryption_at_rest_options": dsObject("Encryption of the domain's data at rest.", dsAttrs{
			"enabled":    dsBool("Whether encryption at rest is on."),
			"kms_key_id": dsString("Key that encrypts the data."),
		}),
		"workforce_identity_options": dsObject("Directory-center (workforce identity) sign-in.", dsAttrs{
			"enabled_api_access":                 dsBool("Whether API access is on."),
			"workforce_identity_instance_arn":    dsString("ARN of the directory-center instance."),
			"workforce_identity_instance_region": dsString("Region of the directory-center instance."),
			"roles_key":                          dsString("Attribute that holds the roles."),
			"subject_key":                        dsString("Attribute that holds the subject."),
			"workforce_identity_application_arn": dsString("ARN of the directory-center application."),
			"identity_store_id":                  dsString("Id of the identity store."),
		}),
		"ip_address_type": dsString("`ipv4` or `dualstack`."),
		"log_publishing_options": dsObjectMap("Log publishing, keyed by log type (`INDEX_SLOW_LOGS`, `SEARCH_SLOW_LOGS`, `ES_APPLICATION_LOGS`, `AUDIT_LOGS`).", dsAttrs{
			"logs_log_group_arn": dsString("ARN of the log group."),
			"enabled":            dsBool("Whether the logs are published."),
		}),
		"node_to_node_encryption_options": dsEnabled("Encryption of traffic between nodes."),
		"off_peak_window_options": dsObject("The daily off-peak window.", dsAttrs{
			"enabled": dsBool("Whether the off-peak window is on."),
			"off_peak_window": dsObject("The window.", dsAttrs{
				"window_start_time": dsObject("Start of the window (UTC).", dsAttrs{
					"hours":   dsInt64("Hour, 0 to 23."),
					"minutes": dsInt64("Minute, 0 to 59."),
				}),
			}),
		}),
		"snapshot_options": dsObject("Automated snapshots.", dsAttrs{
			"automated_snapshot_start_hour": dsInt64("Hour (UTC) of the daily snapshot."),
		}),
		"software_update_options": dsObject("Service software updates.", dsAttrs{
			"auto_software_update_enabled":               dsBool("Whether updates are applied automatically."),
			"use_latest_service_software_for_blue_green": dsBool("Whether blue/green deployments use the latest service software."),
		}),
		"use_case": dsString("`SEARCH`, `VECTOR`, `OBSERVABILITY` or `MIXED`."),
		"vpc_options": dsObject("VPC placement.", dsAttrs{
			"egress_enabled":     dsBool("Whether egress is allowed."),
			"security_group_ids": dsStringList("Security group ids."),
			"subnet_ids":         dsStringList("Subnet ids."),
			"availability_zones": dsStringList("Availability zones of the subnets."),
			"vpc_id":             dsString("VPC id."),
		}),
	})
}

func plannedAdvancedSecuritySchema() schema.SingleNestedAttribute {
	return dsObject("Fine-grained access control (the master user is never returned).", dsAttrs{
		"anonymous_auth_disable_date":    dsString("When anonymous access is turned off (RFC 3339)."),
		"anonymous_auth_enabled":         dsBool("Whether anonymous access is on."),
		"enabled":                        dsBool("Whether fine-grained access control is on."),
		"internal_user_database_enabled": dsBool("Whether the internal user database is on."),
		"identity_federation_options": dsObject("Identity federation.", dsAttrs{
			"enabled":     dsBool("Whether identity federation is on."),
			"roles_key":   dsString("Claim that holds the roles."),
			"subject_key": dsString("Claim that holds the subject."),
		}),
		"jwt_options": dsObject("JWT authentication.", dsAttrs{
			"enabled":     dsBool("Whether JWT authentication is on."),
			"jwks_url":    dsString("URL of the JSON web key set."),
			"public_key":  dsString("Public key that verifies tokens."),
			"roles_key":   dsString("Claim that holds the roles."),
			"subject_key": dsString("Claim that holds the subject."),
		}),
		"saml_options": dsObject("SAML authentication.", dsAttrs{
			"enabled": dsBool("Whether SAML authentication is on."),
			"idp": dsObject("The SAML identity provider.", dsAttrs{
				"entity_id":        dsString("Entity id of the identity provider."),
				"metadata_content": dsString("Metadata of the identity provider (XML)."),
			}),
			"roles_key":               dsString("Assertion attribute that holds the roles."),
			"session_timeout_minutes": dsInt64("Session length in minutes."),
			"subject_key":             dsString("Assertion attribute that holds the subject."),
		}),
	})
}

func plannedAIMLSchema() schema.SingleNestedAttribute {
	return dsObject("Machine-learning features.", dsAttrs{
		"natural_language_query_generation_options": dsObject("Natural-language query generation.", dsAttrs{
			"desired_state": dsString("Requested state."),
			"current_state": dsString("State now."),
		}),
		"object_store_vectors_engine":    dsEnabled("The object-store vector engine."),
		"serverless_vector_acceleration": dsEnabled("Serverless vector acceleration."),
	})
}

func plannedSnapshotPauseSchema() schema.SingleNestedAttribute {
	return dsObject("Suspension of automated snapshots (at most 3 days).", dsAttrs{
		"enabled":    dsBool("Whether a suspension is set."),
		"start_time": dsString("Start of the suspension (RFC 3339)."),
		"end_time":   dsString("End of the suspension (RFC 3339)."),
		"state":      dsString("State of the suspension, such as `Scheduled` or `Paused`."),
	})
}

func plannedClusterConfigSchema() schema.SingleNestedAttribute {
	return dsObject("Nodes and zones of the cluster.", dsAttrs{
		"cold_storage_options":          dsEnabled("Cold storage."),
		"dedicated_master_count":        dsInt64("Number of dedicated master nodes."),
		"dedicated_master_enabled":      dsBool("Whether dedicated master nodes are used."),
		"dedicated_master_type":         dsString("Instance type of the dedicated master nodes."),
		"instance_count":                dsInt64("Number of data nodes."),
		"instance_type":                 dsString("Instance type of the data nodes."),
		"multi_az_with_standby_enabled": dsBool("Whether one zone is kept on standby."),
		"node_options": dsObjectList("Options of other node kinds.", dsAttrs{
			"node_type": dsString("Kind of node."),
			"node_config": dsObject("Configuration of that kind of node.", dsAttrs{
				"count":   dsInt64("Number of nodes."),
				"enabled": dsBool("Whether the nodes are used."),
				"type":    dsString("Instance type."),
			}),
		}),
		"warm_count":   dsInt64("Number of warm nodes."),
		"warm_enabled": dsBool("Whether warm storage is on."),
		"warm_type":    dsString("Instance type of the warm nodes."),
		"zone_awareness_config": dsObject("Zone awareness.", dsAttrs{
			"availability_zone_count": dsInt64("Number of zones, 2 or 3."),
		}),
		"zone_awareness_enabled": dsBool("Whether nodes are spread over zones."),
	})
}
