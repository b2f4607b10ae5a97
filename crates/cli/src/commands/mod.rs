pub(crate) mod explain;
pub(crate) mod export;
pub(crate) mod index;
pub(crate) mod list;
mod lookup;
pub(crate) mod scan;
pub(crate) mod serve;
pub(crate) mod show;
pub(crate) mod stats;
