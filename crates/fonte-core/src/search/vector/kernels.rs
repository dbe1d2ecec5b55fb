//! The scan's arithmetic: f32 and int8 dot products (with WebAssembly SIMD where the compiler
//! does not vectorize) and the int8 quantization of a vector.

/// Dot product with eight independent partial sums: a single running sum is a dependency chain
/// the compiler may not reorder (float addition is not associative), so it stays scalar; eight
/// lanes let it vectorize. HNSW construction is nearly all dot products.
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0f32; 8];
    let chunks = n / 8;
    for i in 0..chunks {
        let (x, y) = (&a[i * 8..i * 8 + 8], &b[i * 8..i * 8 + 8]);
        for l in 0..8 {
            acc[l] += x[l] * y[l];
        }
    }
    let mut sum: f32 = acc.iter().sum();
    for i in chunks * 8..n {
        sum += a[i] * b[i];
    }
    sum
}

/// [`dot`] with sixteen partial sums (four SIMD registers instead of two): the adds of one
/// register form a chain whose latency, not the arithmetic, bounds the loop, so more chains
/// run about twice as fast. For the library-wide pair scans ([`crate::search::retrieve::Neighbours`]);
/// the search keeps [`dot`], whose sums its measured figures were made with.
pub(crate) fn dot_wide(a: &[f32], b: &[f32]) -> f32 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        dot_wide_wasm(a, b)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        dot_wide_portable(a, b)
    }
}

#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code)
)]
fn dot_wide_portable(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0f32; 16];
    let chunks = n / 16;
    for i in 0..chunks {
        let (x, y) = (&a[i * 16..i * 16 + 16], &b[i * 16..i * 16 + 16]);
        for l in 0..16 {
            acc[l] += x[l] * y[l];
        }
    }
    let mut sum = 0f32;
    for x in acc {
        sum += x;
    }
    for i in chunks * 16..n {
        sum += a[i] * b[i];
    }
    sum
}

/// WebAssembly SIMD: the portable loop's sixteen sums as four `f32x4`, multiplied then
/// added as it does (no fused multiply-add), lanes summed in the same order: the same value
/// bit for bit.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn dot_wide_wasm(a: &[f32], b: &[f32]) -> f32 {
    use core::arch::wasm32::*;
    let n = a.len().min(b.len());
    let chunks = n / 16;
    let mut acc = [f32x4_splat(0.0); 4];
    for i in 0..chunks {
        for (r, acc) in acc.iter_mut().enumerate() {
            // SAFETY: i * 16 + r * 4 + 4 <= n <= both lengths; v128_load allows unaligned
            // addresses.
            let (x, y) = unsafe {
                (
                    v128_load(a.as_ptr().add(i * 16 + r * 4) as *const v128),
                    v128_load(b.as_ptr().add(i * 16 + r * 4) as *const v128),
                )
            };
            *acc = f32x4_add(*acc, f32x4_mul(x, y));
        }
    }
    let mut sum = 0f32;
    for r in acc {
        sum += f32x4_extract_lane::<0>(r);
        sum += f32x4_extract_lane::<1>(r);
        sum += f32x4_extract_lane::<2>(r);
        sum += f32x4_extract_lane::<3>(r);
    }
    for i in chunks * 16..n {
        sum += a[i] * b[i];
    }
    sum
}

/// Dot product of two int8 codes, accumulated in i32 (384 × 127² fits easily). Sixteen
/// independent lanes so the compiler emits the SIMD multiply-add (pmaddwd, or wasm's
/// `i32x4.dot_i16x8_s` with simd128) instead of a scalar chain.
pub(super) fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        dot_i8_wasm(a, b)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        dot_i8_portable(a, b)
    }
}

/// WebAssembly SIMD: LLVM does not turn the portable loop into `i32x4.dot_i16x8_s` for wasm
/// (measured: the 100k-vector scan took 40 ms in Chromium against 4.5 ms natively), so widen
/// 16 bytes to two i16x8 halves and use the dot instruction directly.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn dot_i8_wasm(a: &[i8], b: &[i8]) -> i32 {
    use core::arch::wasm32::*;
    let n = a.len().min(b.len());
    let chunks = n / 16;
    let mut acc = i32x4_splat(0);
    for i in 0..chunks {
        // SAFETY: i * 16 + 16 <= n <= both lengths; v128_load allows unaligned addresses.
        let (x, y) = unsafe {
            (
                v128_load(a.as_ptr().add(i * 16) as *const v128),
                v128_load(b.as_ptr().add(i * 16) as *const v128),
            )
        };
        let lo = i32x4_dot_i16x8(i16x8_extend_low_i8x16(x), i16x8_extend_low_i8x16(y));
        let hi = i32x4_dot_i16x8(i16x8_extend_high_i8x16(x), i16x8_extend_high_i8x16(y));
        acc = i32x4_add(acc, i32x4_add(lo, hi));
    }
    let mut sum = i32x4_extract_lane::<0>(acc)
        + i32x4_extract_lane::<1>(acc)
        + i32x4_extract_lane::<2>(acc)
        + i32x4_extract_lane::<3>(acc);
    for i in chunks * 16..n {
        sum += i32::from(a[i]) * i32::from(b[i]);
    }
    sum
}

#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code)
)]
fn dot_i8_portable(a: &[i8], b: &[i8]) -> i32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0i32; 16];
    let chunks = n / 16;
    for i in 0..chunks {
        let (x, y) = (&a[i * 16..i * 16 + 16], &b[i * 16..i * 16 + 16]);
        for l in 0..16 {
            acc[l] += i32::from(x[l]) * i32::from(y[l]);
        }
    }
    let mut sum: i32 = acc.iter().sum();
    for i in chunks * 16..n {
        sum += i32::from(a[i]) * i32::from(b[i]);
    }
    sum
}

/// Symmetric per-vector int8 quantization: `v ≈ scale · code`, with the largest component
/// mapped to ±127.
pub(super) fn quantize(v: &[f32]) -> (Vec<i8>, f32) {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max == 0.0 {
        return (vec![0; v.len()], 0.0);
    }
    let scale = max / 127.0;
    let code = v.iter().map(|x| (x / scale).round() as i8).collect();
    (code, scale)
}
