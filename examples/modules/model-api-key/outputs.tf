output "user_arn" {
  description = "ARN of the user that holds the key."
  value       = cloud_identity_user.this.arn
}

output "credential_id" {
  description = "Id of the key (service_specific_credential_id)."
  value       = cloud_identity_service_specific_credential.this.service_specific_credential_id
}

output "expiration" {
  description = "When the key expires (RFC 3339)."
  value       = cloud_identity_service_specific_credential.this.expiration_date
}

output "region" {
  description = "The only region the key works in."
  value       = cloud_identity_service_specific_credential.this.region
}

output "api_key" {
  description = "The key, sent as `Authorization: Bearer <value>` to the model runtime."
  value       = cloud_identity_service_specific_credential.this.service_api_key_value
  sensitive   = true
}
