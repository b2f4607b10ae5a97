pub(crate) mod export;
pub(crate) mod index;
pub(crate) mod list;
pub(crate) mod show;
pub(crate) mod stats;
