# The validations mirror the provider's own limits, so a bad input fails at
# `terraform validate` / plan time with a message that names the module input.

variable "name" {
  description = "Name of the identity-service user that holds the key: 1 to 64 letters, digits and +=,.@_-."
  type        = string

  validation {
    condition     = length(var.name) >= 1 && length(var.name) <= 64 && can(regex("^[\\w+=,.@-]+$", var.name))
    error_message = "The name must be 1 to 64 characters of letters, digits and +=,.@_-."
  }
}

variable "path" {
  description = "Path of the user: \"/\", or printable ASCII that begins and ends with \"/\" (at most 512 characters)."
  type        = string
  default     = "/"

  validation {
    condition     = length(var.path) <= 512 && can(regex("^(/|/[!-~]+/)$", var.path))
    error_message = "The path must be \"/\" or begin and end with \"/\", hold only printable ASCII characters, and be at most 512 characters long."
  }
}

variable "policy_arn" {
  description = "Policy attached to the user; the key takes its permissions from it."
  type        = string
  default     = "arn:cloud:identity::cloud:policy/ModelsLimitedAccess"

  validation {
    condition     = can(regex("^arn:cloud:identity::([0-9]{12}|cloud):policy/.+", var.policy_arn))
    error_message = "The policy_arn must be a policy ARN such as arn:cloud:identity::cloud:policy/ModelsLimitedAccess."
  }
}

variable "credential_age_days" {
  description = "Days from creation until the key expires (1 to 36600). Many organisations cap it at 90. Changing it replaces the key."
  type        = number
  default     = 90

  validation {
    condition     = var.credential_age_days >= 1 && var.credential_age_days <= 36600 && floor(var.credential_age_days) == var.credential_age_days
    error_message = "The credential_age_days must be a whole number from 1 to 36600."
  }
}

variable "status" {
  description = "\"Active\" or \"Inactive\". Changing it updates the key in place, in both directions."
  type        = string
  default     = "Active"

  validation {
    condition     = contains(["Active", "Inactive"], var.status)
    error_message = "The status must be \"Active\" or \"Inactive\"."
  }
}

variable "renew_before_days" {
  description = "When set, a plan made this many days or fewer before the key expires replaces it. Must be smaller than credential_age_days; null turns renewal off."
  type        = number
  default     = 14

  validation {
    condition     = var.renew_before_days == null ? true : (var.renew_before_days >= 1 && var.renew_before_days < var.credential_age_days && floor(var.renew_before_days) == var.renew_before_days)
    error_message = "The renew_before_days must be a whole number from 1 to credential_age_days - 1, or null."
  }
}

variable "reset_triggers" {
  description = "Change any value to reset the key in place (new key value, same id, status and expiry)."
  type        = map(string)
  default     = {}
}
