pub mod custom_jwt;
