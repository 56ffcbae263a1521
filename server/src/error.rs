//! The lobby's errors, mapped to HTTP statuses and stable codes. Internal
//! details are logged, never sent.

use athlas_protocol::{code, ErrorBody};
use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};

use crate::store::StoreError;

/// An error the HTTP lobby answers with `{"code","message"}`.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{1}")]
    BadRequest(&'static str, String),
    #[error("{0}")]
    NotFound(String),
    #[error("{1}")]
    Conflict(&'static str, String),
    #[error("{1}")]
    Forbidden(&'static str, String),
    /// No credentials where they are needed (`no_token`).
    #[error("{0}")]
    Unauthorized(String),
    /// Understood, but the game refuses it (its own stable code).
    #[error("{1}")]
    Unprocessable(&'static str, String),
    /// A request body over [`crate::MAX_BODY_BYTES`] (`too_large`, 413).
    #[error("{0}")]
    TooLarge(String),
    /// Past a per-address limit (`rate_limited`, 429).
    #[error("{0}")]
    TooMany(String),
    #[error("store: {0}")]
    Store(#[from] StoreError),
}

impl ApiError {
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(..) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(..) => StatusCode::CONFLICT,
            ApiError::Forbidden(..) => StatusCode::FORBIDDEN,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Unprocessable(..) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Store(e) if e.is_unavailable() => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(c, _)
            | ApiError::Conflict(c, _)
            | ApiError::Forbidden(c, _)
            | ApiError::Unprocessable(c, _) => c,
            ApiError::Unauthorized(_) => code::NO_TOKEN,
            ApiError::NotFound(_) => code::NOT_FOUND,
            ApiError::TooMany(_) => code::RATE_LIMITED,
            ApiError::TooLarge(_) => code::TOO_LARGE,
            ApiError::Store(e) => e.code(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = match &self {
            ApiError::Store(e) => {
                tracing::error!(error = %e, "store error");
                if e.is_unavailable() {
                    "the database is unavailable; nothing was changed; retry shortly".to_owned()
                } else {
                    "internal error; nothing was changed".to_owned()
                }
            }
            other => other.to_string(),
        };
        (self.status_code(), Json(ErrorBody { code: self.code().to_owned(), message })).into_response()
    }
}
