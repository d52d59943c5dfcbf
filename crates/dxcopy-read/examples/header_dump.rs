//! Prints the listing sections before the SM4/SM5 program for a container
//! (`//`, the banner's closing `//`, then the sections).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: header_dump FILE")?;
    let bytes = std::fs::read(path)?;
    let container = dxcopy_read::Container::parse(&bytes)?;
    let mut text = String::from("//\n//\n");
    dxcopy_read::listing::dxbc::header::write_header_sections(
        &container,
        &Default::default(),
        &mut text,
    )?;
    print!("{text}");
    Ok(())
}
