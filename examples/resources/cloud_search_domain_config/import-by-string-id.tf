# Import by the domain's name.
import {
  to = cloud_search_domain_config.example
  id = "demo"
}
