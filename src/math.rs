//! The transcendental functions of the search and the evaluator, in one place so that every
//! build can use the same implementation. By default they are std's (the platform's C library
//! natively: glibc's give the recorded bench signature). With the `portable-math` feature they
//! are the `libm` crate's on every target, so that the native and the WebAssembly builds
//! compute the same bits and search alike (docs/web.md, the same engine). The two differ in the
//! last bit for about 1% of `ln` and 10% of `exp` arguments, enough to change a search.

#[cfg(not(feature = "portable-math"))]
mod imp {
    pub fn ln(x: f64) -> f64 {
        x.ln()
    }
    pub fn exp(x: f64) -> f64 {
        x.exp()
    }
    pub fn ln_f32(x: f32) -> f32 {
        x.ln()
    }
    pub fn powf(x: f32, y: f32) -> f32 {
        x.powf(y)
    }
}

#[cfg(feature = "portable-math")]
mod imp {
    pub fn ln(x: f64) -> f64 {
        libm::log(x)
    }
    pub fn exp(x: f64) -> f64 {
        libm::exp(x)
    }
    pub fn ln_f32(x: f32) -> f32 {
        libm::logf(x)
    }
    pub fn powf(x: f32, y: f32) -> f32 {
        libm::powf(x, y)
    }
}

pub use imp::{exp, ln, ln_f32, powf};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_functions_are_the_ones_they_name() {
        assert!((ln(std::f64::consts::E) - 1.0).abs() < 1e-15);
        assert!((exp(1.0) - std::f64::consts::E).abs() < 1e-15);
        assert!((ln_f32(std::f32::consts::E) - 1.0).abs() < 1e-6);
        assert!((powf(9.0, 0.5) - 3.0).abs() < 1e-6);
    }
}
