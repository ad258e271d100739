//! Property files (`.prp`): what a task asks for.

use anyhow::{Context, Result};
use std::path::Path;

/// What a property file asks for. tsoify checks `UnreachCall` and `NoDataRace`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropertyKind {
    /// `CHECK( init(main()), LTL(G ! call(reach_error())) )`
    UnreachCall,
    /// `LTL(G ! data-race)`
    NoDataRace,
    /// `LTL(G ! overflow)`
    NoOverflow,
    /// `LTL(G valid-free)`, `LTL(G valid-deref)`, `LTL(G valid-memtrack)`
    ValidMemsafety,
    /// `LTL(G valid-memcleanup)`
    ValidMemcleanup,
    /// `LTL(F end)`
    Termination,
    /// anything else: the property text (its CHECK lines, one line)
    Other(String),
}

impl PropertyKind {
    /// Classify the text of a `.prp` file. Whitespace is insignificant;
    /// comment lines (`//`) are ignored; the entry point must be main.
    pub fn parse(text: &str) -> PropertyKind {
        let checks: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
            .collect();
        let formula = |c: &String| -> Option<String> {
            c.strip_prefix("CHECK(init(main()),LTL(")?.strip_suffix("))").map(str::to_string)
        };
        let formulas: Option<Vec<String>> = checks.iter().map(formula).collect();
        let mut f = formulas.unwrap_or_default();
        f.sort();
        let f: Vec<&str> = f.iter().map(String::as_str).collect();
        match f.as_slice() {
            ["G!call(reach_error())"] | ["G!call(__VERIFIER_error())"] => PropertyKind::UnreachCall,
            ["G!data-race"] => PropertyKind::NoDataRace,
            ["G!overflow"] => PropertyKind::NoOverflow,
            ["Gvalid-deref", "Gvalid-free", "Gvalid-memtrack"] => PropertyKind::ValidMemsafety,
            ["Gvalid-memcleanup"] => PropertyKind::ValidMemcleanup,
            ["Fend"] => PropertyKind::Termination,
            _ => PropertyKind::Other(spec_text(text)),
        }
    }

    /// The property's SV-COMP name (`unreach-call`, `no-data-race`, ...).
    pub fn name(&self) -> String {
        match self {
            PropertyKind::UnreachCall => "unreach-call".into(),
            PropertyKind::NoDataRace => "no-data-race".into(),
            PropertyKind::NoOverflow => "no-overflow".into(),
            PropertyKind::ValidMemsafety => "valid-memsafety".into(),
            PropertyKind::ValidMemcleanup => "valid-memcleanup".into(),
            PropertyKind::Termination => "termination".into(),
            PropertyKind::Other(text) => format!("the property `{text}`"),
        }
    }

    /// The inverse of `name` for the named properties.
    pub fn from_name(name: &str) -> Option<PropertyKind> {
        Some(match name {
            "unreach-call" => PropertyKind::UnreachCall,
            "no-data-race" => PropertyKind::NoDataRace,
            "no-overflow" => PropertyKind::NoOverflow,
            "valid-memsafety" => PropertyKind::ValidMemsafety,
            "valid-memcleanup" => PropertyKind::ValidMemcleanup,
            "termination" => PropertyKind::Termination,
            _ => return None,
        })
    }

    /// Why we answer UNKNOWN without looking, or None for unreach-call.
    pub fn unsupported_reason(&self) -> Option<String> {
        match self {
            PropertyKind::UnreachCall | PropertyKind::NoDataRace => None,
            other => Some(format!("tsoify checks only unreach-call and no-data-race; {} is not supported", other.name())),
        }
    }
}

/// The property text as one line (the CHECK lines joined by a space).
fn spec_text(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")).collect::<Vec<_>>().join(" ")
}

/// A property file: what it asks for and its text (the witness's `specification`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertySpec {
    pub kind: PropertyKind,
    pub text: String,
}

impl PropertySpec {
    pub fn read(path: &Path) -> Result<PropertySpec> {
        let text = std::fs::read_to_string(path).with_context(|| format!("property file {}", path.display()))?;
        Ok(PropertySpec { kind: PropertyKind::parse(&text), text: spec_text(&text) })
    }

    /// unreach-call, as SV-COMP writes it (when no property file is given).
    pub fn unreach_call() -> PropertySpec {
        PropertySpec { kind: PropertyKind::UnreachCall, text: "CHECK( init(main()), LTL(G ! call(reach_error())) )".into() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn property_files() {
        use PropertyKind::*;
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(G ! call(reach_error())) )\n"), UnreachCall);
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )"), UnreachCall);
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(G ! data-race) )\n"), NoDataRace);
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(G ! overflow) )\n"), NoOverflow);
        assert_eq!(
            PropertyKind::parse(
                "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n"
            ),
            ValidMemsafety
        );
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(G valid-memcleanup) )\n"), ValidMemcleanup);
        assert_eq!(PropertyKind::parse("CHECK( init(main()), LTL(F end) )\n"), Termination);
        assert_eq!(
            PropertyKind::parse("CHECK( init(main()), LTL(G def-behavior) )\n"),
            Other("CHECK( init(main()), LTL(G def-behavior) )".into())
        );
        // another entry point is not the unreach-call we check
        assert!(matches!(PropertyKind::parse("CHECK( init(start()), LTL(G ! call(reach_error())) )"), Other(_)));
        assert_eq!(UnreachCall.unsupported_reason(), None);
        assert_eq!(NoDataRace.unsupported_reason(), None);
        assert_eq!(NoOverflow.unsupported_reason().unwrap(), "tsoify checks only unreach-call and no-data-race; no-overflow is not supported");
        assert_eq!(PropertyKind::from_name("valid-memsafety"), Some(ValidMemsafety));
        assert_eq!(PropertyKind::from_name("unreach-call"), Some(UnreachCall));
    }

}
