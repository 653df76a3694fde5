//! Links the installed libKineticC: KINETIC_LIB_DIR names the folder holding libKineticC.so
//! (`make install PREFIX=...` puts it in PREFIX/lib; `make test-c` uses .build-install/lib).
//! The binary gets that folder as its run path, so it needs no LD_LIBRARY_PATH.
use std::env;
use std::fs;
use std::path::Path;
use std::process;

fn main() {
    println!("cargo:rerun-if-env-changed=KINETIC_LIB_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    let dir = match env::var("KINETIC_LIB_DIR") {
        Ok(dir) if !dir.is_empty() => dir,
        _ => fail(
            "KINETIC_LIB_DIR is not set: set it to the folder holding libKineticC.so, e.g. \
             KINETIC_LIB_DIR=$PWD/.build-install/lib after `make install PREFIX=$PWD/.build-install` \
             (or run `make test-c`, which sets it)",
        ),
    };
    // An absolute path, so that the run path works from any working directory.
    let dir = match fs::canonicalize(&dir) {
        Ok(path) => path,
        Err(error) => fail(&format!("KINETIC_LIB_DIR = {dir:?}: {error}")),
    };
    if !Path::new(&dir).join("libKineticC.so").exists() {
        fail(&format!("KINETIC_LIB_DIR = {}: there is no libKineticC.so in it", dir.display()));
    }
    let dir = dir.display();
    println!("cargo:rustc-link-search=native={dir}");
    println!("cargo:rustc-link-lib=dylib=KineticC");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    process::exit(1);
}
