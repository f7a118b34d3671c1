# Import by the domain's name.
terraform import cloud_search_domain_config.example demo
