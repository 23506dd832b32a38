//! A JSON body extractor whose rejections are `invalid_data` errors in the wire shape.

use axum::extract::FromRequest;

use crate::error::AppError;

/// Like [`axum::Json`], but a malformed body answers `{error, code: "invalid_data"}`.
#[derive(Debug, FromRequest)]
#[from_request(via(axum::Json), rejection(AppError))]
pub struct JsonBody<T>(pub T);
