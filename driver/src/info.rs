//! The program's location and globals tables, as the fork server dumps them,
//! and naming an address for a person.

use serde::Deserialize;

#[derive(Deserialize, Default, Clone, Debug)]
pub struct Loc {
    pub file: String,
    pub func: String,
    pub what: String,
    pub line: u32,
    pub col: u32,
    pub op: u32,
    /// the access's ordering (LLVM AtomicOrdering: 0 not atomic, 2 relaxed,
    /// 4 acquire, 5 release, 6 acq_rel, 7 seq_cst)
    #[serde(default)]
    pub order: u32,
}

#[derive(Deserialize, Clone, Debug)]
pub struct Global {
    pub name: String,
    pub addr: u64,
    pub size: u64,
}

#[derive(Deserialize, Default, Debug)]
pub struct ProgramInfo {
    pub locs: Vec<Loc>,
    pub globals: Vec<Global>,
}

impl ProgramInfo {
    pub fn read(path: &std::path::Path) -> ProgramInfo {
        std::fs::read_to_string(path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
    }

    pub fn loc(&self, id: u32) -> Option<&Loc> {
        self.locs.get(id as usize).filter(|l| l.line > 0 || !l.file.is_empty())
    }

    /// The ordering of the access or fence at location id `id` (0: plain,
    /// volatile, or unknown).
    pub fn order(&self, id: u32) -> u32 {
        self.locs.get(id as usize).map_or(0, |l| l.order)
    }

    /// `file:line` of a location id, or "-".
    pub fn position(&self, id: u32) -> String {
        match self.loc(id) {
            Some(l) => {
                let file = std::path::Path::new(&l.file).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
                format!("{file}:{}", l.line)
            }
            None => "-".into(),
        }
    }

    /// A variable name for an address: `x`, `arr[2]`, `s+4`, or hex.
    pub fn name_of(&self, addr: u64, size: u8, loc: u32) -> String {
        for g in &self.globals {
            if addr >= g.addr && addr < g.addr + g.size.max(1) {
                let off = addr - g.addr;
                if off == 0 && (size as u64 == g.size || size == 0) {
                    return g.name.clone();
                }
                if size > 0 && g.size.is_multiple_of(size as u64) && off.is_multiple_of(size as u64) {
                    return format!("{}[{}]", g.name, off / size as u64);
                }
                return format!("{}+{}", g.name, off);
            }
        }
        match self.loc(loc).map(|l| l.what.as_str()) {
            Some(w) if !w.is_empty() && w != "?" => w.to_string(),
            _ => format!("{addr:#x}"),
        }
    }
}
