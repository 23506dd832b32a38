//! A path-parameter extractor whose rejections are `invalid_data` errors in the wire shape.

use axum::extract::FromRequestParts;

use crate::error::AppError;

/// Like [`axum::extract::Path`], but a parameter that does not decode (e.g. `%FF`, not UTF-8)
/// answers `{error, code: "invalid_data"}` instead of a plain-text 400.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(AppError))]
pub struct PathParam<T>(pub T);
