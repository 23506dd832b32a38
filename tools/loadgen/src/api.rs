//! The few server and mailbox calls the scenarios make, with the headers a browser client sends.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::error::{LoadgenError, Result};

/// A signed-in session: the tokens the next refresh needs.
#[derive(Debug, Clone)]
pub struct Session {
    /// Access token (sent as the bearer, as the browser client does).
    pub access: String,
    /// Current refresh token; every refresh replaces it.
    pub refresh: String,
}

/// Where the server and the mailbox are, and who we claim to be.
#[derive(Debug, Clone)]
pub struct Api {
    http: reqwest::Client,
    api: String,
    mailbox: String,
    smsbox: String,
    app_id: String,
    origin: String,
}

impl Api {
    /// A client whose pool keeps up to `connections` idle connections, so each worker keeps its own.
    pub fn new(
        api: &str,
        mailbox: &str,
        smsbox: &str,
        app_id: &str,
        origin: &str,
        connections: usize,
    ) -> Result<Self> {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(connections)
            .tcp_nodelay(true)
            .timeout(Duration::from_secs(20))
            .build()?;
        Ok(Self {
            http,
            api: api.trim_end_matches('/').to_owned(),
            mailbox: mailbox.trim_end_matches('/').to_owned(),
            smsbox: smsbox.trim_end_matches('/').to_owned(),
            app_id: app_id.to_owned(),
            origin: origin.to_owned(),
        })
    }

    /// A `/v1` call of the app's back end (HTTP Basic with the app secret); the JSON answer.
    pub async fn v1(
        &self,
        secret: &str,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value> {
        let mut request = self
            .http
            .request(method, format!("{}{path}", self.api))
            .basic_auth(&self.app_id, Some(secret))
            .header("privy-app-id", &self.app_id);
        if let Some(body) = body {
            request = request.json(body);
        }
        answer(path, request.send().await?).await
    }

    /// A `/v1` POST with extra headers (authorization signatures, deadline); the JSON answer.
    pub async fn v1_signed(
        &self,
        secret: &str,
        path: &str,
        body: &Value,
        headers: &[(&str, String)],
    ) -> Result<Value> {
        let mut request = self
            .http
            .post(format!("{}{path}", self.api))
            .basic_auth(&self.app_id, Some(secret))
            .header("privy-app-id", &self.app_id)
            .json(body);
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        answer(path, request.send().await?).await
    }

    async fn post(&self, path: &str, body: Value, bearer: Option<&str>) -> Result<Value> {
        let mut request = self
            .http
            .post(format!("{}/api/v1{path}", self.api))
            .header("privy-app-id", &self.app_id)
            .header("privy-client", "react-auth:3.3.0")
            .header("origin", &self.origin)
            .json(&body);
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        answer(path, request.send().await?).await
    }

    /// `POST /passwordless/init`: the server emails a code.
    pub async fn send_code(&self, email: &str) -> Result<()> {
        self.post("/passwordless/init", json!({ "email": email }), None)
            .await?;
        Ok(())
    }

    /// Polls the mailbox until a message to `email` carries a 6-digit code.
    pub async fn wait_for_code(&self, email: &str) -> Result<String> {
        let deadline = Instant::now() + Duration::from_secs(15);
        let url = format!(
            "{}/api/messages?to={}",
            self.mailbox,
            encode_query_value(email)
        );
        loop {
            let messages: Value = self.http.get(&url).send().await?.json().await?;
            let found = messages.as_array().and_then(|list| {
                list.iter().rev().find_map(|m| {
                    let subject = m.get("subject").and_then(Value::as_str).unwrap_or_default();
                    let text = m.get("text").and_then(Value::as_str).unwrap_or_default();
                    find_code(subject).or_else(|| find_code(text))
                })
            });
            if let Some(code) = found {
                return Ok(code);
            }
            if Instant::now() > deadline {
                return Err(LoadgenError::NoCode(email.to_owned()));
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// `POST /passwordless/authenticate`.
    pub async fn authenticate(&self, email: &str, code: &str) -> Result<Session> {
        let body = json!({ "email": email, "code": code, "mode": "login-or-sign-up" });
        let answer = self.post("/passwordless/authenticate", body, None).await?;
        session_from("/passwordless/authenticate", &answer)
    }

    /// The whole email login: send the code, read it from the mailbox, sign in.
    pub async fn login(&self, email: &str) -> Result<Session> {
        self.send_code(email).await?;
        let code = self.wait_for_code(email).await?;
        self.authenticate(email, &code).await
    }

    /// The whole SMS login: text the code, read it from the SMS catcher, sign in.
    pub async fn sms_login(&self, phone_number: &str) -> Result<Session> {
        let number = json!({ "phoneNumber": phone_number });
        self.post("/passwordless_sms/init", number, None).await?;
        let code = self.wait_for_sms_code(phone_number).await?;
        let body = json!({ "phoneNumber": phone_number, "code": code });
        let answer = self
            .post("/passwordless_sms/authenticate", body, None)
            .await?;
        session_from("/passwordless_sms/authenticate", &answer)
    }

    /// Polls the SMS catcher until a message to `phone_number` carries a 6-digit code.
    async fn wait_for_sms_code(&self, phone_number: &str) -> Result<String> {
        let deadline = Instant::now() + Duration::from_secs(15);
        let url = format!(
            "{}/api/messages?to={}",
            self.smsbox,
            encode_query_value(phone_number)
        );
        loop {
            let messages: Value = self.http.get(&url).send().await?.json().await?;
            let found = messages.as_array().and_then(|list| {
                list.iter()
                    .find_map(|m| find_code(m.get("body").and_then(Value::as_str)?))
            });
            if let Some(code) = found {
                return Ok(code);
            }
            if Instant::now() > deadline {
                return Err(LoadgenError::NoCode(phone_number.to_owned()));
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// `POST /sessions`: rotates the refresh token; the returned session replaces `session`.
    pub async fn refresh(&self, session: &Session) -> Result<Session> {
        let body = json!({ "refresh_token": session.refresh });
        let answer = self.post("/sessions", body, Some(&session.access)).await?;
        session_from("/sessions", &answer)
    }
}

fn session_from(path: &str, answer: &Value) -> Result<Session> {
    let field = |name: &str| {
        answer
            .get(name)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| LoadgenError::Protocol {
                path: path.to_owned(),
                detail: format!("no `{name}` in the session response"),
            })
    };
    Ok(Session {
        access: field("token")?,
        refresh: field("refresh_token")?,
    })
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
fn encode_query_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len() * 3);
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The first run of exactly six ASCII digits in `text`.
pub fn find_code(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut start = None;
    for i in 0..=bytes.len() {
        let digit = bytes.get(i).is_some_and(u8::is_ascii_digit);
        match (digit, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if i - s == 6 {
                    return text.get(s..i).map(str::to_owned);
                }
                start = None;
            }
            _ => {}
        }
    }
    None
}

/// The JSON of a successful answer to `path`; its status and the start of its body otherwise.
async fn answer(path: &str, response: reqwest::Response) -> Result<Value> {
    let status = response.status();
    let bytes = response.bytes().await?;
    if !status.is_success() {
        return Err(LoadgenError::Status {
            path: path.to_owned(),
            status: status.as_u16(),
            body: String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned(),
        });
    }
    serde_json::from_slice(&bytes).map_err(|e| LoadgenError::Protocol {
        path: path.to_owned(),
        detail: format!("body is not JSON: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::{encode_query_value, find_code};

    #[test]
    fn encodes_an_address_for_a_query_string() {
        assert_eq!(encode_query_value("a.b-c@x.example"), "a.b-c%40x.example");
        assert_eq!(encode_query_value("a+b c"), "a%2Bb%20c");
    }

    #[test]
    fn finds_a_six_digit_code_but_not_longer_or_shorter_runs() {
        assert_eq!(find_code("Your code is 042917."), Some("042917".to_owned()));
        assert_eq!(
            find_code("042917 is your Symbolon code"),
            Some("042917".to_owned())
        );
        assert_eq!(
            find_code("order 1234567, code 12345, then 654321"),
            Some("654321".to_owned())
        );
        assert_eq!(find_code("no code here 12345"), None);
    }
}
