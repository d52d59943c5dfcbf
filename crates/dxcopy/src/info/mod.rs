//! dxinfo views over the decoded parts: text, JSON and obj2yaml-compatible YAML.

pub mod yaml;
