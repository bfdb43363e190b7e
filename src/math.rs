//! The transcendental functions of the search and the evaluator, from the `libm` crate on every
//! target: std takes them from the platform (glibc natively, a port of musl's in WebAssembly),
//! and the two differ in the last bit for about 1% of `ln` and 10% of `exp` arguments, enough to
//! part two searches. One implementation makes the native and the WebAssembly builds search
//! alike (docs/web.md, the same engine); the bench signature is the one glibc's math gave.

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
