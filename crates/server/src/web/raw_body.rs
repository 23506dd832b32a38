//! A raw-body extractor whose rejections are errors in the wire shape.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};

use crate::error::AppError;

/// Like [`Bytes`], but a body over the limit answers a JSON 413 (`invalid_data`) instead of a
/// plain-text one.
#[derive(Debug)]
pub struct RawBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for RawBody {
    type Rejection = AppError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(Bytes::from_request(request, state).await?))
    }
}
